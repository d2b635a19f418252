import type { InvoiceInputDraft } from '../../../src/billing/schemas/index.js';
import {
  startBillingEmulator,
  type BillingEmulator,
  type BillingEmulatorOptions,
} from '../../../sandbox/billing/billing-emulator.js';

/** Keys of DEFAULT_KEYS (sandbox values, not secrets). */
export const ACME_KEY = 'sandbox-key-acme';
export const GLOBEX_KEY = 'sandbox-key-globex';
export const ACME_ATTACH_KEY = 'sandbox-attach-acme';

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  key?: string | null;
  attachmentKey?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | Array<string | number>>;
  raw?: string;
}

/** A tiny fetch wrapper around a started emulator. */
export class Api {
  constructor(readonly emu: BillingEmulator) {}

  async call(method: string, path: string, body?: unknown, o: CallOptions = {}): Promise<Reply> {
    const url = new URL(path, this.emu.url);
    for (const [k, v] of Object.entries(o.query ?? {})) {
      if (Array.isArray(v)) for (const x of v) url.searchParams.append(k, String(x));
      else url.searchParams.append(k, String(v));
    }
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.attachmentKey !== undefined) headers['X-Service-Attachment-Upload-Signature'] = o.attachmentKey;
    else if (o.key !== null) headers['X-Service-Signature'] = o.key ?? ACME_KEY;
    let payload: string | undefined;
    if (o.raw !== undefined) payload = o.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      /* keep text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  get(path: string, o?: CallOptions) {
    return this.call('GET', path, undefined, o);
  }
  post(path: string, body?: unknown, o?: CallOptions) {
    return this.call('POST', path, body, o);
  }
  upsert(invoice: InvoiceInputDraft, o?: CallOptions) {
    return this.post('/external/invoice/upsert', { invoice }, o);
  }
  list(query: CallOptions['query'] = {}, o?: CallOptions) {
    return this.get('/external/invoices', { ...o, query });
  }
  admin(method: 'GET' | 'POST', path: string, body?: unknown, company = 'acme') {
    const sep = path.includes('?') ? '&' : '?';
    return this.call(method, `/__admin${path}${company ? `${sep}company=${company}` : ''}`, body, { key: null });
  }
  setClock(now: string | null) {
    return this.admin('POST', '/clock', { now });
  }
}

export async function startApi(options: BillingEmulatorOptions = {}): Promise<Api> {
  return new Api(await startBillingEmulator(options));
}

let counter = 0;
/** A valid invoice input; amounts and dates overridable. */
export function invoice(overrides: Partial<InvoiceInputDraft> = {}): InvoiceInputDraft {
  counter += 1;
  return {
    invoiceId: `INV-ID-${counter}`,
    invoiceNumber: `INV-${counter}`,
    invoiceDate: { date: '2025-03-01' },
    invoiceDueDate: { date: '2025-03-31' },
    invoiceSubtotal: 100,
    invoiceTotal: 118,
    invoiceTax: { total: 18 },
    customerDetails: {
      buyerId: 'BUYER-1',
      name: 'Buyer One',
      taxIdentifiers: [{ type: 'GSTIN', value: '29ABCDE1234F1Z5' }],
    },
    invoiceOriginSource: 'EXTERNAL_SYSTEM_A',
    ...overrides,
  };
}
