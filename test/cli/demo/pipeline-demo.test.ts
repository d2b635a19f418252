import { describe, expect, it } from 'vitest';
import { runPipelineDemo } from '../../../cli/demo/pipeline-demo.js';
import { startDemo, startZohoDemo } from '../../../cli/demo/sandbox-erps.js';
import { PROFILES } from '../../../sandbox/profiles.js';

const tally = PROFILES.find((p) => p.name === 'tally')!;

/** The demo's pipeline with TallyPrime beside a vendor of the demo's default billing company. */
describe('erp-sync demo (pipeline) with Tally', () => {
  it('given Tally in its own billing company beside Zoho Books, when the demo runs, then billing matches each source exactly: the cancellations and the deletion reported, acted on, and no drift left', async () => {
    const lines: string[] = [];
    const summary = await runPipelineDemo([() => startZohoDemo(20, 3), () => startDemo(tally, 20, 3)], (l) =>
      lines.push(l),
    );
    const [zoho, t] = summary.connections;
    expect(zoho).toMatchObject({ system: 'zoho-books', drift: 0 });
    expect(zoho!.source).toBe(zoho!.billing + zoho!.quarantined);
    // 20 seeded Sales vouchers + 3 created − 1 deleted; cancelled ones are voids in billing, counted.
    expect(t).toMatchObject({ system: 'tally', source: 22, billing: 22, quarantined: 0, drift: 0 });
    expect(t!.driftBeforeFix.delete_not_reflected).toBe(1);
    expect(t!.driftBeforeFix.void_not_reflected).toBeGreaterThanOrEqual(2);
    expect(lines).toContain('\n▶ tally-sandbox (tally → EXTERNAL_SYSTEM_A, billing company demo-tally)');
    expect(summary.ok).toBe(true);
  }, 180_000);
});
