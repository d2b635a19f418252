import type { RecordedChange } from './change-feed.js';
import { SeededRandom } from './seeded-random.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings, type WebhookSettingsBody } from './webhook-settings.js';
import type { PayloadContext, WebhookDelivery, WebhookVendor } from './webhook-vendor.js';

/** off: no url or secret; verifying: the handshake runs; unverified: it failed; disabled: retries ran out (Xero). */
export type WebhookStatus = 'off' | 'verifying' | 'active' | 'unverified' | 'disabled';

export interface WebhookStats {
  changes: number;
  /** Changes recorded while deliveries were off, unverified or disabled: never sent, as the vendor would not. */
  notSent: number;
  attempts: number;
  delivered: number;
  failedAttempts: number;
  dropped: number;
  duplicated: number;
  /** Deliveries given up after the last retry. */
  abandoned: number;
  handshakes: number;
}

/** One attempt, for `GET /__admin/webhooks` (no bodies, no secrets). */
export interface AttemptLog {
  at: string;
  path: string;
  events: number;
  attempt: number;
  status: number;
}

const LOG_MAX = 200;

/**
 * An emulator's webhook sender: collects the changes its store records for `delayMs`, turns them into the
 * vendor's deliveries, applies the admin-set faults (drop, duplicate, reorder) from a seeded generator, and
 * posts them with the vendor's retries. Real timers; tests make delays small and wait on deliveries.
 */
export class WebhookSender {
  private settings: WebhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS };
  private state: WebhookStatus = 'off';
  private faults = new SeededRandom('1:faults');
  private payloads = new SeededRandom('1:payloads');
  private pending: RecordedChange[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Intuit: deliveries waiting behind the one being retried. */
  private readonly queue: WebhookDelivery[] = [];
  private queueBusy = false;
  private generation = 0;
  private closed = false;
  /** Since the subscription was last set up (a new url or secret starts them over). */
  readonly stats: WebhookStats = emptyStats();
  readonly log: AttemptLog[] = [];

  constructor(
    readonly vendor: WebhookVendor,
    private readonly now: () => number = Date.now,
  ) {}

  get status(): WebhookStatus {
    return this.state;
  }

  /** Merges admin settings; a new url, secret or seed starts over (and runs the vendor's handshake). */
  async configure(body: WebhookSettingsBody): Promise<WebhookStatus> {
    const restart = body.url !== undefined || body.secret !== undefined || this.state === 'disabled';
    this.settings = { ...this.settings, ...stripUndefined(body) };
    if (body.seed !== undefined) {
      this.faults = new SeededRandom(`${String(body.seed)}:faults`);
      this.payloads = new SeededRandom(`${String(body.seed)}:payloads`);
    }
    const problem = this.vendor.check?.(this.settings);
    if (problem) throw new Error(problem);
    if (restart) await this.restart();
    return this.state;
  }

  /** Runs the vendor's handshake again (Xero: re-enabling a subscription). */
  async verify(): Promise<WebhookStatus> {
    await this.restart();
    return this.state;
  }

  view(): Record<string, unknown> {
    const { secret, ...rest } = this.settings;
    return {
      vendor: this.vendor.name,
      status: this.state,
      settings: { ...rest, secretSet: secret !== null },
      stats: { ...this.stats, pending: this.pending.length + this.queue.length },
      log: this.log,
    };
  }

  /** The store's listener: every recorded change. */
  record(change: RecordedChange): void {
    this.stats.changes += 1;
    if (this.state !== 'active' || this.closed) {
      this.stats.notSent += 1;
      return;
    }
    this.pending.push(change.render ? { ...change, record: change.record ?? change.render() } : change);
    this.flushTimer ??= this.later(this.settings.delayMs, () => {
      this.flushTimer = undefined;
      this.flush();
    });
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async restart(): Promise<void> {
    this.generation += 1;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.flushTimer = undefined;
    this.pending = [];
    this.queue.length = 0;
    this.queueBusy = false;
    Object.assign(this.stats, emptyStats());
    this.log.length = 0;
    if (!this.settings.url || !this.settings.secret) {
      this.state = 'off';
      return;
    }
    if (!this.vendor.handshake) {
      this.state = 'active';
      return;
    }
    await this.handshake(this.generation);
  }

  /** Xero's intent to receive: every step answered as expected, or the subscription stays unverified. */
  private async handshake(generation: number): Promise<void> {
    this.state = 'verifying';
    const steps = this.vendor.handshake!(this.context());
    let ok = true;
    for (const step of steps) {
      this.stats.handshakes += 1;
      const status = await this.post(step.delivery, 0);
      if (status !== step.expect) ok = false;
    }
    if (generation !== this.generation || this.closed) return;
    this.state = ok ? 'active' : 'unverified';
    if (!ok && this.settings.intentRetryMs > 0)
      this.later(this.settings.intentRetryMs, () => void this.handshake(generation));
  }

  private flush(): void {
    const changes = this.pending.splice(0);
    if (!changes.length || this.state !== 'active') return;
    const out: WebhookDelivery[] = [];
    for (const d of this.vendor.deliveries(changes, this.context())) {
      if (this.faults.chance(this.settings.dropRate)) {
        this.stats.dropped += 1;
        continue;
      }
      out.push(d);
      if (this.faults.chance(this.settings.duplicateRate)) {
        this.stats.duplicated += 1;
        out.push(d);
      }
    }
    if (this.settings.reorder) shuffle(out, this.faults);
    if (this.vendor.ordered) {
      this.queue.push(...out);
      void this.pump(this.generation);
    } else void this.sendInTurn(out, this.generation);
  }

  /**
   * First attempts one after another, so a seed gives the same arrival order on every run (a failed one's
   * retries run on their own timers and do not hold the others).
   */
  private async sendInTurn(out: readonly WebhookDelivery[], generation: number): Promise<void> {
    for (const d of out) {
      if (generation !== this.generation || this.closed) return;
      await this.attempt(d, 0, generation);
    }
  }

  /** Intuit: one delivery at a time; the next waits until the head is acknowledged. */
  private async pump(generation: number): Promise<void> {
    if (this.queueBusy) return;
    const head = this.queue[0];
    if (!head) return;
    this.queueBusy = true;
    const delivered = await this.attempt(head, 0, generation);
    if (generation !== this.generation) return;
    if (delivered !== 'retrying') {
      this.queue.shift();
      this.queueBusy = false;
      void this.pump(generation);
    }
  }

  /** One attempt; on failure schedules the next per the retry schedule. */
  private async attempt(
    d: WebhookDelivery,
    n: number,
    generation: number,
  ): Promise<'delivered' | 'retrying' | 'abandoned'> {
    const status = await this.post(d, n);
    if (generation !== this.generation || this.closed) return 'abandoned';
    if (status >= 200 && status < 300) {
      this.stats.delivered += 1;
      return 'delivered';
    }
    this.stats.failedAttempts += 1;
    const wait = this.retryDelay(n);
    if (wait === undefined) {
      this.exhausted();
      return 'abandoned';
    }
    this.later(wait, () => {
      void this.attempt(d, n + 1, generation).then((r) => {
        if (this.vendor.ordered && r !== 'retrying' && generation === this.generation) {
          this.queue.shift();
          this.queueBusy = false;
          void this.pump(generation);
        }
      });
    });
    return 'retrying';
  }

  private retryDelay(n: number): number | undefined {
    const schedule = this.settings.retryDelaysMs ?? this.vendor.retryDelaysMs;
    if (n < schedule.length) return schedule[n];
    return this.vendor.repeatLastDelay && schedule.length ? schedule[schedule.length - 1] : undefined;
  }

  private exhausted(): void {
    this.stats.abandoned += 1;
    if (this.vendor.onExhausted !== 'disable') return;
    this.state = 'disabled';
    this.generation += 1;
    this.pending = [];
    this.queue.length = 0;
  }

  /** POSTs one delivery; the status, or 0 when nothing answered in time. */
  private async post(d: WebhookDelivery, attempt: number): Promise<number> {
    const base = (this.settings.url ?? '').replace(/\/+$/, '');
    this.stats.attempts += 1;
    let status = 0;
    try {
      const res = await fetch(`${base}${d.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...d.headers },
        body: d.body,
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? this.vendor.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      status = res.status;
    } catch {
      status = 0;
    }
    this.log.push({ at: new Date(this.now()).toISOString(), path: d.path, events: d.events, attempt, status });
    if (this.log.length > LOG_MAX) this.log.shift();
    return status;
  }

  private context(): PayloadContext {
    return { settings: { ...this.settings, secret: this.settings.secret ?? '' }, random: this.payloads };
  }

  private later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
    return t;
  }
}

function emptyStats(): WebhookStats {
  return {
    changes: 0,
    notSent: 0,
    attempts: 0,
    delivered: 0,
    failedAttempts: 0,
    dropped: 0,
    duplicated: 0,
    abandoned: 0,
    handshakes: 0,
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Fisher–Yates with the seeded generator. */
function shuffle<T>(items: T[], random: SeededRandom): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
