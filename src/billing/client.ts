import type { Got } from 'got';
import { z } from 'zod';
import { DataContractError, formatZodIssues, type SyncError } from '../errors/index.js';
import { createHttpClient } from '../http/create-http-client.js';
import { networkError } from '../http/network-error.js';
import { type RetryPolicy, withRetry } from '../http/with-retry.js';
import { billingError } from './error-table.js';
import { isChecked } from './schemas/checked-input.js';
import { toSearchParams } from './schemas/query-string.js';
import * as S from './schemas/index.js';

/**
 * Typed client for the billing service: all 16 endpoints of shared/spec/billing-service-interface.md.
 *
 * Retry budget (one owner per layer):
 * - got: no retries (createHttpClient).
 * - this client: p-retry around each call for retryable errors (5xx, 408, network), default 1 + 2
 *   attempts within 10 s; 429 is NOT retried here — it surfaces as RateLimitedError so the upsert
 *   queue's rate limit pauses every worker for Retry-After without consuming an attempt.
 * - BullMQ: attempts with exponential backoff for the whole job (jobs/catalog.ts).
 * Worst case for one record: (1 + retries) × attempts HTTP calls, e.g. 3 × 8 = 24.
 */

export interface BillingClientOptions {
  baseUrl: string;
  /** X-Service-Signature: every endpoint but 6 and 7. */
  apiKey: string;
  /** X-Service-Attachment-Upload-Signature: endpoints 6 and 7. */
  attachmentKey?: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /**
   * Called before every HTTP attempt, retries included: resolves when the request may go (the
   * deployment's billing rate budget). Not set: requests go at once.
   */
  pace?: (signal?: AbortSignal) => Promise<void>;
  /** Called once per HTTP attempt, for metrics. `status` 0 = network error. */
  onResponse?: (info: { endpoint: string; status: number; durationMs: number }) => void;
}

type KeyKind = 'service' | 'attachment';

interface CallOptions<T extends z.ZodTypeAny> {
  method: 'GET' | 'POST';
  /** Endpoint template for metrics and errors, e.g. "POST /external/invoice/upsert". */
  endpoint: string;
  path: string;
  keyKind?: KeyKind;
  query?: object;
  body?: unknown;
  response: T;
  fieldsMask?: readonly string[];
  signal?: AbortSignal;
  retries?: number;
}

/** Per-call options every method accepts. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** In-process retries of this call (p-retry) instead of the client's; a probe that repeats on its own interval asks for 0. */
  retries?: number;
  /** X-Fields-Mask (our name for the interface's unnamed fields-mask header). */
  fieldsMask?: readonly string[];
}

const Empty = S.EmptyObject;
const PagedInvoices = S.envelopeOf(S.paginatedOf(S.InvoiceRecord));
const PagedCustomers = S.envelopeOf(S.paginatedOf(S.CustomerRecord));
const PagedContracts = S.envelopeOf(S.paginatedOf(S.ContractRecord));
const PagedUsageDrivers = S.envelopeOf(S.paginatedOf(S.UsageDriverRecord));
const Attachments = S.envelopeOf(S.AttachmentList);
const IdEnvelope = S.envelopeOf(S.IdData);
const Ratecards = S.envelopeOf(S.FeeComponentRatecards);
const Tags = S.envelopeOf(z.array(S.FeeComponentTagRecord));
const Cfcrs = S.envelopeOf(z.array(S.ContractFeeComponentRatecardRecord));

export class BillingClient {
  private readonly http: Got;

  constructor(private readonly options: BillingClientOptions) {
    this.http = createHttpClient({ prefixUrl: options.baseUrl.replace(/\/+$/, ''), timeoutMs: options.timeoutMs });
  }

  // 1. POST /external/invoice/upsert
  async upsertInvoice(invoice: S.InvoiceInputDraft, opts: RequestOptions = {}): Promise<void> {
    const body = isChecked(invoice) ? { invoice } : validate(S.InvoiceUpsertBody, { invoice }, 'request', 'POST /external/invoice/upsert');
    await this.call({ method: 'POST', endpoint: 'POST /external/invoice/upsert', path: 'external/invoice/upsert', body, response: Empty, ...opts });
  }

  // 2. POST /external/creditNotes/upsert
  async upsertCreditNote(creditNote: S.CreditNoteInputDraft, opts: RequestOptions = {}): Promise<void> {
    const body = isChecked(creditNote) ? { creditNote } : validate(S.CreditNoteUpsertBody, { creditNote }, 'request', 'POST /external/creditNotes/upsert');
    await this.call({ method: 'POST', endpoint: 'POST /external/creditNotes/upsert', path: 'external/creditNotes/upsert', body, response: Empty, ...opts });
  }

  // 3. POST /external/customer
  async createCustomer(customer: S.CustomerDetailsInput, opts: RequestOptions = {}): Promise<void> {
    const body = validate(S.CustomerCreateBody, customer, 'request', 'POST /external/customer');
    await this.call({ method: 'POST', endpoint: 'POST /external/customer', path: 'external/customer', body, response: Empty, ...opts });
  }

  // 4. GET /external/customer/search
  async searchCustomers(params: S.CustomerSearchParams = {}, opts: RequestOptions = {}): Promise<S.Paginated<S.CustomerRecord>> {
    const query = validate(S.CustomerSearchQuery, params, 'query', 'GET /external/customer/search');
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /external/customer/search',
      path: 'external/customer/search',
      query,
      response: PagedCustomers,
      ...opts,
    });
    return res.data as S.Paginated<S.CustomerRecord>;
  }

  // 5. GET /external/invoices
  async listInvoices(params: S.InvoiceListParams = {}, opts: RequestOptions = {}): Promise<S.Paginated<S.InvoiceRecord>> {
    const query = validate(S.InvoiceListQuery, params, 'query', 'GET /external/invoices');
    const res = await this.call({ method: 'GET', endpoint: 'GET /external/invoices', path: 'external/invoices', query, response: PagedInvoices, ...opts });
    return res.data as S.Paginated<S.InvoiceRecord>;
  }

  // 6. POST /invoice/attachment/upload (attachment key)
  async addInvoiceAttachment(input: S.InvoiceAttachmentBody, opts: RequestOptions = {}): Promise<S.AttachmentList> {
    const body = validate(S.InvoiceAttachmentBody, input, 'request', 'POST /invoice/attachment/upload');
    const res = await this.call({
      method: 'POST',
      endpoint: 'POST /invoice/attachment/upload',
      path: 'invoice/attachment/upload',
      keyKind: 'attachment',
      body,
      response: Attachments,
      ...opts,
    });
    return res.data;
  }

  // 7. GET /invoice/attachments (attachment key)
  async listInvoiceAttachments(params: S.AttachmentListQuery, opts: RequestOptions = {}): Promise<S.AttachmentList> {
    const query = validate(S.AttachmentListQuery, params, 'query', 'GET /invoice/attachments');
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /invoice/attachments',
      path: 'invoice/attachments',
      keyKind: 'attachment',
      query,
      response: Attachments,
      ...opts,
    });
    return res.data;
  }

  // 8. POST /creditNote/attachment/upload
  async addCreditNoteAttachment(input: S.CreditNoteAttachmentBody, opts: RequestOptions = {}): Promise<{ id: string }> {
    const body = validate(S.CreditNoteAttachmentBody, input, 'request', 'POST /creditNote/attachment/upload');
    const res = await this.call({
      method: 'POST',
      endpoint: 'POST /creditNote/attachment/upload',
      path: 'creditNote/attachment/upload',
      body,
      response: IdEnvelope,
      ...opts,
    });
    return { id: res.data.id };
  }

  // 9. POST /billing/usageDriver
  async createUsageDriver(input: S.UsageDriverInput, opts: RequestOptions = {}): Promise<{ id: string }> {
    const body = validate(S.UsageDriverInput, input, 'request', 'POST /billing/usageDriver');
    const res = await this.call({ method: 'POST', endpoint: 'POST /billing/usageDriver', path: 'billing/usageDriver', body, response: IdEnvelope, ...opts });
    return { id: res.data.id };
  }

  // 10. GET /billing/usageDriver/filter
  async filterUsageDrivers(params: S.UsageDriverFilterParams = {}, opts: RequestOptions = {}): Promise<S.Paginated<S.UsageDriverRecord>> {
    const query = validate(S.UsageDriverFilterQuery, params, 'query', 'GET /billing/usageDriver/filter');
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /billing/usageDriver/filter',
      path: 'billing/usageDriver/filter',
      query,
      response: PagedUsageDrivers,
      ...opts,
    });
    return res.data as S.Paginated<S.UsageDriverRecord>;
  }

  // 11. POST /billing/contract/feeComponent
  async addFeeComponentToContract(input: S.AddFeeComponentBody, opts: RequestOptions = {}): Promise<S.Paginated<S.ContractRecord>> {
    const body = validate(S.AddFeeComponentBody, input, 'request', 'POST /billing/contract/feeComponent');
    const res = await this.call({
      method: 'POST',
      endpoint: 'POST /billing/contract/feeComponent',
      path: 'billing/contract/feeComponent',
      body,
      response: PagedContracts,
      ...opts,
    });
    return res.data as S.Paginated<S.ContractRecord>;
  }

  // 12. POST /billing/contract/feeComponent/ratecard/{contract_id}
  async selectRatecards(contractId: string, input: S.SelectRatecardsBody, opts: RequestOptions = {}): Promise<S.Paginated<S.ContractRecord>> {
    const body = validate(S.SelectRatecardsBody, input, 'request', 'POST /billing/contract/feeComponent/ratecard/{contract_id}');
    const res = await this.call({
      method: 'POST',
      endpoint: 'POST /billing/contract/feeComponent/ratecard/{contract_id}',
      path: `billing/contract/feeComponent/ratecard/${encodeURIComponent(contractId)}`,
      body,
      response: PagedContracts,
      ...opts,
    });
    return res.data as S.Paginated<S.ContractRecord>;
  }

  // 13. GET /billing/ratecard/feeComponent/fetch/{fee_component_id}
  async fetchFeeComponentRatecards(
    feeComponentId: string,
    params: S.FeeComponentRatecardParams = {},
    opts: RequestOptions = {},
  ): Promise<S.FeeComponentRatecards> {
    const query = validate(S.FeeComponentRatecardQuery, params, 'query', 'GET /billing/ratecard/feeComponent/fetch/{fee_component_id}');
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /billing/ratecard/feeComponent/fetch/{fee_component_id}',
      path: `billing/ratecard/feeComponent/fetch/${encodeURIComponent(feeComponentId)}`,
      query,
      response: Ratecards,
      ...opts,
    });
    return res.data;
  }

  // 14. GET /billing/contract/filter
  async filterContracts(params: S.ContractFilterParams = {}, opts: RequestOptions = {}): Promise<S.Paginated<S.ContractRecord>> {
    const query = validate(S.ContractFilterQuery, params, 'query', 'GET /billing/contract/filter');
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /billing/contract/filter',
      path: 'billing/contract/filter',
      query,
      response: PagedContracts,
      ...opts,
    });
    return res.data as S.Paginated<S.ContractRecord>;
  }

  // 15. GET /billing/feeComponentTag/fetch/feeComponent/{fee_component_id}
  async fetchFeeComponentTags(feeComponentId: string, opts: RequestOptions = {}): Promise<S.FeeComponentTagRecord[]> {
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /billing/feeComponentTag/fetch/feeComponent/{fee_component_id}',
      path: `billing/feeComponentTag/fetch/feeComponent/${encodeURIComponent(feeComponentId)}`,
      response: Tags,
      ...opts,
    });
    return res.data;
  }

  // 16. GET /billing/contract/feeComponent/ratecard
  async listContractFeeComponentRatecards(
    params: S.ContractFeeComponentRatecardQuery = {},
    opts: RequestOptions = {},
  ): Promise<S.ContractFeeComponentRatecardRecord[]> {
    const query = validate(S.ContractFeeComponentRatecardQuery, params, 'query', 'GET /billing/contract/feeComponent/ratecard');
    const res = await this.call({
      method: 'GET',
      endpoint: 'GET /billing/contract/feeComponent/ratecard',
      path: 'billing/contract/feeComponent/ratecard',
      query,
      response: Cfcrs,
      ...opts,
    });
    return res.data;
  }

  /** Every page of an invoice listing, one page at a time (memory bounded by the page size). */
  iterateInvoicePages(params: S.InvoiceListParams = {}, opts: RequestOptions = {}): AsyncGenerator<S.Paginated<S.InvoiceRecord>> {
    return walkPages((pageNumber) => this.listInvoices({ ...params, pageNumber }, opts), Number(params.pageNumber ?? 1));
  }

  /** Every page of a customer search. */
  iterateCustomerPages(params: S.CustomerSearchParams = {}, opts: RequestOptions = {}): AsyncGenerator<S.Paginated<S.CustomerRecord>> {
    return walkPages((pageNumber) => this.searchCustomers({ ...params, pageNumber }, opts), Number(params.pageNumber ?? 1));
  }

  /** Every page of a usage-driver filter. */
  iterateUsageDriverPages(params: S.UsageDriverFilterParams = {}, opts: RequestOptions = {}): AsyncGenerator<S.Paginated<S.UsageDriverRecord>> {
    return walkPages((pageNumber) => this.filterUsageDrivers({ ...params, pageNumber }, opts), Number(params.pageNumber ?? 1));
  }

  /** Every page of a contract filter. */
  iterateContractPages(params: S.ContractFilterParams = {}, opts: RequestOptions = {}): AsyncGenerator<S.Paginated<S.ContractRecord>> {
    return walkPages((pageNumber) => this.filterContracts({ ...params, pageNumber }, opts), Number(params.pageNumber ?? 1));
  }

  private call<T extends z.ZodTypeAny>(c: CallOptions<T>): Promise<z.infer<T>> {
    const retries = c.retries === undefined ? {} : { retries: c.retries };
    return withRetry(() => this.once(c), { ...this.options.retry, ...retries, signal: c.signal ?? this.options.retry?.signal });
  }

  private async once<T extends z.ZodTypeAny>(c: CallOptions<T>): Promise<z.infer<T>> {
    const key = c.keyKind === 'attachment' ? this.options.attachmentKey : this.options.apiKey;
    if (!key) throw new DataContractError(`${c.endpoint}: no ${c.keyKind ?? 'service'} key configured`, { source: 'billing', operation: c.endpoint });
    const headers: Record<string, string> = {
      [c.keyKind === 'attachment' ? 'x-service-attachment-upload-signature' : 'x-service-signature']: key,
      accept: 'application/json',
    };
    if (c.fieldsMask?.length) headers['x-fields-mask'] = c.fieldsMask.join(',');
    await this.options.pace?.(c.signal);
    const started = performance.now();
    let res;
    try {
      res = await this.http(c.path, {
        method: c.method,
        headers,
        searchParams: c.query ? toSearchParams(c.query) : undefined,
        json: c.body,
        signal: c.signal,
      });
    } catch (err) {
      this.options.onResponse?.({ endpoint: c.endpoint, status: 0, durationMs: performance.now() - started });
      if (c.signal?.aborted) throw c.signal.reason ?? err;
      throw networkError(err, 'billing', c.endpoint);
    }
    this.options.onResponse?.({ endpoint: c.endpoint, status: res.statusCode, durationMs: performance.now() - started });
    const parsed = parseJson(res.body);
    if (res.statusCode >= 300) throw billingError(res.statusCode, parsed ?? res.body, res.headers, c.endpoint);
    return validate(c.response, parsed, 'response', c.endpoint);
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function validate<T extends z.ZodTypeAny>(schema: T, value: unknown, what: 'request' | 'query' | 'response', operation: string): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new DataContractError(`billing ${operation}: invalid ${what}`, {
    issues: formatZodIssues(r.error),
    source: 'billing',
    operation,
  }) satisfies SyncError;
}

async function* walkPages<T>(fetchPage: (pageNumber: number) => Promise<S.Paginated<T>>, first = 1): AsyncGenerator<S.Paginated<T>> {
  let pageNumber = first;
  for (;;) {
    const page = await fetchPage(pageNumber);
    yield page;
    if (!page.hasNext || page.nextPageNumber === null) return;
    if (page.nextPageNumber <= pageNumber) {
      throw new DataContractError(`billing paging went backwards (page ${pageNumber} → ${page.nextPageNumber})`, { source: 'billing' });
    }
    pageNumber = page.nextPageNumber;
  }
}
