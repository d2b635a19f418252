import type { Redis } from 'ioredis';
import type { StateKeys } from './keys.js';

/** An outage in progress: since when (ms since epoch) and the last failure seen (no secrets: src/errors). */
export interface Outage {
  since: number;
  message: string;
}

const MESSAGE_MAX = 300;

/**
 * Who is down, shared by every process: billing (the upsert queue pauses while it is) and each
 * connection's vendor (its pulls wait). Set by the first process that decides so, cleared by the first
 * success; `since` is kept from the first mark so metrics and alerts measure the whole outage.
 */
export class Outages {
  constructor(
    private readonly redis: Redis,
    private readonly keys: StateKeys,
  ) {}

  /** Marks `target` ('billing' or a connection id) down unless it already is; returns the outage in force. */
  async markDown(target: string, message: string, at = Date.now()): Promise<Outage> {
    const key = this.keys.outage(target);
    const value: Outage = { since: at, message: message.slice(0, MESSAGE_MAX) };
    const [[, set], [, raw]] = (await this.redis.multi().set(key, JSON.stringify(value), 'NX').get(key).exec()) as [
      [null, string | null],
      [null, string | null],
    ];
    return set ? value : raw ? (JSON.parse(raw) as Outage) : value;
  }

  /** Back up: returns the outage that ended, if there was one. */
  async markUp(target: string): Promise<Outage | undefined> {
    const key = this.keys.outage(target);
    const [[, raw]] = (await this.redis.multi().get(key).del(key).exec()) as [[null, string | null], [null, number]];
    return raw ? (JSON.parse(raw) as Outage) : undefined;
  }

  async get(target: string): Promise<Outage | undefined> {
    const raw = await this.redis.get(this.keys.outage(target));
    return raw ? (JSON.parse(raw) as Outage) : undefined;
  }
}
