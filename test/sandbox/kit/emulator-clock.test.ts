import { describe, expect, it } from 'vitest';
import { EmulatorClock } from '../../../sandbox/kit/emulator-clock.js';

describe('QBO sandbox clock', () => {
  it('given {now, frozen: true}, then it stands exactly at now; advancing moves it; unfreezing lets it tick from there', () => {
    for (let i = 0; i < 200; i++)
      expect(new EmulatorClock({ now: '2025-03-01T00:00:00Z', frozen: true }).now()).toBe(
        Date.parse('2025-03-01T00:00:00Z'),
      );
    let wall = Date.now();
    const clock = new EmulatorClock({ now: '2025-03-01T00:00:00.900Z', frozen: true }, () => wall);
    expect(clock.nowSecond()).toBe(Date.parse('2025-03-01T00:00:00Z'));
    clock.set({ advanceSeconds: 60 });
    expect(clock.snapshot()).toEqual({ now: '2025-03-01T00:01:00.900Z', frozen: true });
    clock.set({ frozen: false });
    wall += 20;
    expect(clock.now()).toBeGreaterThan(Date.parse('2025-03-01T00:01:00.910Z'));
  });
});
