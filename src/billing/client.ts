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
const Paged = <T extends z.ZodTypeAny>(record: T) => S.envelopeOf(S.paginatedOf(record));
const Attachments = S.envelopeOf(S.AttachmentList);
const IdEnvelope = S.envelopeOf(S.IdData);

/**
 * One endpoint of the interface: `endpoint` is its template as the interface writes it (also the label
 * of its metrics and errors); `{name}` segments are filled, URL-encoded, from the call's path params.
 */
interface Endpoint<T extends z.ZodTypeAny = z.ZodTypeAny> {
  endpoint: `${'GET' | 'POST'} /${string}`;
  keyKind?: KeyKind;
  query?: z.ZodType<object>;
  body?: z.ZodTypeAny;
  response: T;
}

/** The 16 endpoints, numbered as in the interface; endpoints 6 and 7 take the attachment key. */
const E = {
  upsertInvoice: { endpoint: 'POST /external/invoice/upsert', body: S.InvoiceUpsertBody, response: Empty }, // 1
  upsertCreditNote: { endpoint: 'POST /external/creditNotes/upsert', body: S.CreditNoteUpsertBody, response: Empty }, // 2
  createCustomer: { endpoint: 'POST /external/customer', body: S.CustomerCreateBody, response: Empty }, // 3
  searchCustomers: {
    endpoint: 'GET /external/customer/search',
    query: S.CustomerSearchQuery,
    response: Paged(S.CustomerRecord),
  }, // 4
  listInvoices: { endpoint: 'GET /external/invoices', query: S.InvoiceListQuery, response: Paged(S.InvoiceRecord) }, // 5
  addInvoiceAttachment: {
    endpoint: 'POST /invoice/attachment/upload',
    keyKind: 'attachment',
    body: S.InvoiceAttachmentBody,
    response: Attachments,
  }, // 6
  listInvoiceAttachments: {
    endpoint: 'GET /invoice/attachments',
    keyKind: 'attachment',
    query: S.AttachmentListQuery,
    response: Attachments,
  }, // 7
  addCreditNoteAttachment: {
    endpoint: 'POST /creditNote/attachment/upload',
    body: S.CreditNoteAttachmentBody,
    response: IdEnvelope,
  }, // 8
  createUsageDriver: { endpoint: 'POST /billing/usageDriver', body: S.UsageDriverInput, response: IdEnvelope }, // 9
  filterUsageDrivers: {
    endpoint: 'GET /billing/usageDriver/filter',
    query: S.UsageDriverFilterQuery,
    response: Paged(S.UsageDriverRecord),
  }, // 10
  addFeeComponentToContract: {
    endpoint: 'POST /billing/contract/feeComponent',
    body: S.AddFeeComponentBody,
    response: Paged(S.ContractRecord),
  }, // 11
  selectRatecards: {
    endpoint: 'POST /billing/contract/feeComponent/ratecard/{contract_id}',
    body: S.SelectRatecardsBody,
    response: Paged(S.ContractRecord),
  }, // 12
  fetchFeeComponentRatecards: {
    endpoint: 'GET /billing/ratecard/feeComponent/fetch/{fee_component_id}',
    query: S.FeeComponentRatecardQuery,
    response: S.envelopeOf(S.FeeComponentRatecards),
  }, // 13
  filterContracts: {
    endpoint: 'GET /billing/contract/filter',
    query: S.ContractFilterQuery,
    response: Paged(S.ContractRecord),
  }, // 14
  fetchFeeComponentTags: {
    endpoint: 'GET /billing/feeComponentTag/fetch/feeComponent/{fee_component_id}',
    response: S.envelopeOf(z.array(S.FeeComponentTagRecord)),
  }, // 15
  listContractFeeComponentRatecards: {
    endpoint: 'GET /billing/contract/feeComponent/ratecard',
    query: S.ContractFeeComponentRatecardQuery,
    response: S.envelopeOf(z.array(S.ContractFeeComponentRatecardRecord)),
  }, // 16
} as const satisfies Record<string, Endpoint>;

/** What one call sends: path params in template order, the query or body (`checked`: parsed already, sent as is). */
interface EndpointInput {
  params?: readonly string[];
  query?: unknown;
  body?: unknown;
  checked?: boolean;
}

export class BillingClient {
  private readonly http: Got;

  constructor(private readonly options: BillingClientOptions) {
    this.http = createHttpClient({ prefixUrl: options.baseUrl.replace(/\/+$/, ''), timeoutMs: options.timeoutMs });
  }

  async upsertInvoice(invoice: S.InvoiceInputDraft, opts: RequestOptions = {}): Promise<void> {
    await this.request(E.upsertInvoice, { body: { invoice }, checked: isChecked(invoice) }, opts);
  }

  async upsertCreditNote(creditNote: S.CreditNoteInputDraft, opts: RequestOptions = {}): Promise<void> {
    await this.request(E.upsertCreditNote, { body: { creditNote }, checked: isChecked(creditNote) }, opts);
  }

  async createCustomer(customer: S.CustomerDetailsInput, opts: RequestOptions = {}): Promise<void> {
    await this.request(E.createCustomer, { body: customer }, opts);
  }

  async searchCustomers(
    params: S.CustomerSearchParams = {},
    opts: RequestOptions = {},
  ): Promise<S.Paginated<S.CustomerRecord>> {
    return (await this.request(E.searchCustomers, { query: params }, opts)).data as S.Paginated<S.CustomerRecord>;
  }

  async listInvoices(
    params: S.InvoiceListParams = {},
    opts: RequestOptions = {},
  ): Promise<S.Paginated<S.InvoiceRecord>> {
    return (await this.request(E.listInvoices, { query: params }, opts)).data as S.Paginated<S.InvoiceRecord>;
  }

  async addInvoiceAttachment(input: S.InvoiceAttachmentBody, opts: RequestOptions = {}): Promise<S.AttachmentList> {
    return (await this.request(E.addInvoiceAttachment, { body: input }, opts)).data;
  }

  async listInvoiceAttachments(params: S.AttachmentListQuery, opts: RequestOptions = {}): Promise<S.AttachmentList> {
    return (await this.request(E.listInvoiceAttachments, { query: params }, opts)).data;
  }

  async addCreditNoteAttachment(input: S.CreditNoteAttachmentBody, opts: RequestOptions = {}): Promise<{ id: string }> {
    return { id: (await this.request(E.addCreditNoteAttachment, { body: input }, opts)).data.id };
  }

  async createUsageDriver(input: S.UsageDriverInput, opts: RequestOptions = {}): Promise<{ id: string }> {
    return { id: (await this.request(E.createUsageDriver, { body: input }, opts)).data.id };
  }

  async filterUsageDrivers(
    params: S.UsageDriverFilterParams = {},
    opts: RequestOptions = {},
  ): Promise<S.Paginated<S.UsageDriverRecord>> {
    return (await this.request(E.filterUsageDrivers, { query: params }, opts)).data as S.Paginated<S.UsageDriverRecord>;
  }

  async addFeeComponentToContract(
    input: S.AddFeeComponentBody,
    opts: RequestOptions = {},
  ): Promise<S.Paginated<S.ContractRecord>> {
    return (await this.request(E.addFeeComponentToContract, { body: input }, opts))
      .data as S.Paginated<S.ContractRecord>;
  }

  async selectRatecards(
    contractId: string,
    input: S.SelectRatecardsBody,
    opts: RequestOptions = {},
  ): Promise<S.Paginated<S.ContractRecord>> {
    return (await this.request(E.selectRatecards, { params: [contractId], body: input }, opts))
      .data as S.Paginated<S.ContractRecord>;
  }

  async fetchFeeComponentRatecards(
    feeComponentId: string,
    params: S.FeeComponentRatecardParams = {},
    opts: RequestOptions = {},
  ): Promise<S.FeeComponentRatecards> {
    return (await this.request(E.fetchFeeComponentRatecards, { params: [feeComponentId], query: params }, opts)).data;
  }

  async filterContracts(
    params: S.ContractFilterParams = {},
    opts: RequestOptions = {},
  ): Promise<S.Paginated<S.ContractRecord>> {
    return (await this.request(E.filterContracts, { query: params }, opts)).data as S.Paginated<S.ContractRecord>;
  }

  async fetchFeeComponentTags(feeComponentId: string, opts: RequestOptions = {}): Promise<S.FeeComponentTagRecord[]> {
    return (await this.request(E.fetchFeeComponentTags, { params: [feeComponentId] }, opts)).data;
  }

  async listContractFeeComponentRatecards(
    params: S.ContractFeeComponentRatecardQuery = {},
    opts: RequestOptions = {},
  ): Promise<S.ContractFeeComponentRatecardRecord[]> {
    return (await this.request(E.listContractFeeComponentRatecards, { query: params }, opts)).data;
  }

  /** Every page of an invoice listing, one page at a time (memory bounded by the page size). */
  iterateInvoicePages(
    params: S.InvoiceListParams = {},
    opts: RequestOptions = {},
  ): AsyncGenerator<S.Paginated<S.InvoiceRecord>> {
    return walkPages(
      (pageNumber) => this.listInvoices({ ...params, pageNumber }, opts),
      Number(params.pageNumber ?? 1),
    );
  }

  /** Every page of a customer search. */
  iterateCustomerPages(
    params: S.CustomerSearchParams = {},
    opts: RequestOptions = {},
  ): AsyncGenerator<S.Paginated<S.CustomerRecord>> {
    return walkPages(
      (pageNumber) => this.searchCustomers({ ...params, pageNumber }, opts),
      Number(params.pageNumber ?? 1),
    );
  }

  /** Every page of a usage-driver filter. */
  iterateUsageDriverPages(
    params: S.UsageDriverFilterParams = {},
    opts: RequestOptions = {},
  ): AsyncGenerator<S.Paginated<S.UsageDriverRecord>> {
    return walkPages(
      (pageNumber) => this.filterUsageDrivers({ ...params, pageNumber }, opts),
      Number(params.pageNumber ?? 1),
    );
  }

  /** Every page of a contract filter. */
  iterateContractPages(
    params: S.ContractFilterParams = {},
    opts: RequestOptions = {},
  ): AsyncGenerator<S.Paginated<S.ContractRecord>> {
    return walkPages(
      (pageNumber) => this.filterContracts({ ...params, pageNumber }, opts),
      Number(params.pageNumber ?? 1),
    );
  }

  /** One call of an endpoint of the table: its query or body validated here (before any attempt), then sent. */
  private request<T extends z.ZodTypeAny>(
    e: Endpoint<T>,
    input: EndpointInput,
    opts: RequestOptions,
  ): Promise<z.infer<T>> {
    const { endpoint } = e;
    const space = endpoint.indexOf(' ');
    const query = e.query ? validate(e.query, input.query, 'query', endpoint) : undefined;
    const body = e.body && !input.checked ? validate(e.body, input.body, 'request', endpoint) : input.body;
    const params = [...(input.params ?? [])];
    const path = endpoint.slice(space + 2).replace(/\{[a-z_]+\}/g, () => encodeURIComponent(params.shift()!));
    return this.call({
      method: endpoint.slice(0, space) as CallOptions<T>['method'],
      endpoint,
      path,
      keyKind: e.keyKind,
      query,
      body,
      response: e.response,
      ...opts,
    });
  }

  private call<T extends z.ZodTypeAny>(c: CallOptions<T>): Promise<z.infer<T>> {
    const retries = c.retries === undefined ? {} : { retries: c.retries };
    return withRetry(() => this.once(c), {
      ...this.options.retry,
      ...retries,
      signal: c.signal ?? this.options.retry?.signal,
    });
  }

  private async once<T extends z.ZodTypeAny>(c: CallOptions<T>): Promise<z.infer<T>> {
    const key = c.keyKind === 'attachment' ? this.options.attachmentKey : this.options.apiKey;
    if (!key)
      throw new DataContractError(`${c.endpoint}: no ${c.keyKind ?? 'service'} key configured`, {
        source: 'billing',
        operation: c.endpoint,
      });
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
    this.options.onResponse?.({
      endpoint: c.endpoint,
      status: res.statusCode,
      durationMs: performance.now() - started,
    });
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

function validate<T extends z.ZodTypeAny>(
  schema: T,
  value: unknown,
  what: 'request' | 'query' | 'response',
  operation: string,
): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new DataContractError(`billing ${operation}: invalid ${what}`, {
    issues: formatZodIssues(r.error),
    source: 'billing',
    operation,
  }) satisfies SyncError;
}

async function* walkPages<T>(
  fetchPage: (pageNumber: number) => Promise<S.Paginated<T>>,
  first = 1,
): AsyncGenerator<S.Paginated<T>> {
  let pageNumber = first;
  for (;;) {
    const page = await fetchPage(pageNumber);
    yield page;
    if (!page.hasNext || page.nextPageNumber === null) return;
    if (page.nextPageNumber <= pageNumber) {
      throw new DataContractError(`billing paging went backwards (page ${pageNumber} → ${page.nextPageNumber})`, {
        source: 'billing',
      });
    }
    pageNumber = page.nextPageNumber;
  }
}
