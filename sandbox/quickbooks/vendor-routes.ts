import { setTimeout as sleep } from 'node:timers/promises';
import { minimalPdf } from '../kit/minimal-pdf.js';
import { type RouteContext, type RouteResult, Router } from '../kit/router.js';
import { cdcRoute } from './cdc-route.js';
import { withCustomFieldsFor } from './custom-field-view.js';
import { type EmulatorState, responseTime } from './emulator-state.js';
import { ok, qboFaults } from './qbo-fault.js';
import { executeQuery } from './query-executor.js';
import { parseQuery, QueryError } from './query-parser.js';

/**
 * The QBO API surface of the sandbox:
 *   GET  /v3/company/:realmId/query?query=…&minorversion=75   (POST with Content-Type application/text too)
 *   GET  /v3/company/:realmId/cdc?entities=…&changedSince=…
 *   GET  /v3/company/:realmId/invoice/:id   (creditmemo/:id, customer/:id)
 *   GET  /v3/company/:realmId/invoice/:id/pdf   (creditmemo/:id/pdf: the document as application/pdf)
 *   POST /oauth2/v1/tokens/bearer   (refresh_token and authorization_code grants)
 *   GET  /connect/oauth2               (appcenter.intuit.com's authorize page: the consent form)
 * Every API call: a valid Bearer token (lowercase 401 3200), the path's realm must be the sandbox company
 * (403 3100), then the realm's limits (429 3001), then `latencyMs` of "processing" while it holds its slot.
 * `minorversion` is accepted and counted, never required (Intuit applies minor version 75 when none is sent).
 * Reads show a transaction's enhanced custom fields only with `include=enhancedAllCustomFields`
 * (custom-field-view.ts).
 */
/** The consent page's form posts here (the sandbox's own path). */
export const QBO_DECISION_PATH = '/connect/oauth2/decision';

const READ_ONE: Record<string, string> = { invoice: 'Invoice', creditmemo: 'CreditMemo', customer: 'Customer' };
/** The entities QuickBooks renders as PDF (of those the sandbox holds). */
const PDF_OF: Record<string, string> = { invoice: 'Invoice', creditmemo: 'CreditMemo' };

export function vendorRouter(state: EmulatorState): Router {
  const api =
    (endpoint: string, handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>) =>
    async (ctx: RouteContext): Promise<RouteResult> => {
      const c = state.counters;
      c.requests += 1;
      c.byEndpoint[endpoint] = (c.byEndpoint[endpoint] ?? 0) + 1;
      const mv = ctx.query.get('minorversion') ?? '(none)';
      c.minorVersions[mv] = (c.minorVersions[mv] ?? 0) + 1;
      const auth = String(ctx.headers.authorization ?? '');
      const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
      const valid = state.tokens.isValid(token);
      if (valid !== 'ok')
        return qboFaults.authentication(
          valid === 'expired' ? 'Token expired: the access token has expired' : 'Token invalid: no valid bearer token',
        );
      if (ctx.params.realmId !== state.realmId)
        return qboFaults.authorization(
          `The token is not authorised for company ${ctx.params.realmId}`,
          responseTime(state),
        );
      const slot = state.limiter.enter();
      if (!slot.ok) return qboFaults.throttled(responseTime(state));
      try {
        if (state.latencyMs > 0) await sleep(state.latencyMs);
        return await handler(ctx);
      } finally {
        slot.release();
      }
    };

  const query = (ctx: RouteContext): RouteResult => {
    state.counters.queries += 1;
    const time = responseTime(state);
    const statement =
      ctx.method === 'POST' ? (typeof ctx.body === 'string' ? ctx.body : ctx.rawBody) : ctx.query.get('query');
    if (!statement?.trim())
      return qboFaults.validation('4000', 'Error parsing query', 'QueryParserError: no query given', time);
    try {
      const q = parseQuery(statement);
      const rows = withCustomFieldsFor(state.store.rows(q.entity), ctx.query.get('include'));
      const result = executeQuery(q, rows, state.offsetMinutes);
      return ok({ ...result, time });
    } catch (e) {
      if (e instanceof QueryError)
        return qboFaults.validation(
          e.code,
          e.code === '4000' ? 'Error parsing query' : 'Invalid query',
          e.message,
          time,
        );
      throw e;
    }
  };

  const readOne = (ctx: RouteContext): RouteResult => {
    const entity = READ_ONE[ctx.params.entity?.toLowerCase() ?? ''];
    const time = responseTime(state);
    if (!entity) return qboFaults.validation('4001', 'Invalid query', `Unsupported entity ${ctx.params.entity}`, time);
    const row = state.store.rows(entity).find((r) => r.Id === ctx.params.id);
    if (!row)
      return qboFaults.notFound(
        `Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees. ${entity} ${ctx.params.id}`,
        time,
      );
    return ok({ [entity]: withCustomFieldsFor([row], ctx.query.get('include'))[0], time });
  };

  // https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice#get-an-invoice-as-pdf
  const pdf = (ctx: RouteContext): RouteResult => {
    const entity = PDF_OF[ctx.params.entity?.toLowerCase() ?? ''];
    const time = responseTime(state);
    if (!entity) return qboFaults.validation('4001', 'Invalid query', `Unsupported entity ${ctx.params.entity}`, time);
    const row = state.store.rows(entity).find((r) => r.Id === ctx.params.id);
    if (!row) return qboFaults.notFound(`${entity} ${ctx.params.id}`, time);
    const doc = row as { DocNumber?: string; TotalAmt?: number; CurrencyRef?: { value?: string } };
    return {
      status: 200,
      headers: { 'content-type': 'application/pdf' },
      text: minimalPdf([
        `${entity} ${doc.DocNumber ?? row.Id}`,
        `Total ${doc.TotalAmt ?? ''} ${doc.CurrencyRef?.value ?? ''}`,
        'QuickBooks Online sandbox',
      ]),
    };
  };

  return (
    new Router()
      .on('GET', '/v3/company/:realmId/query', api('GET /query', query))
      .on('POST', '/v3/company/:realmId/query', api('POST /query', query))
      .on('GET', '/v3/company/:realmId/cdc', api('GET /cdc', cdcRoute(state)))
      .on('GET', '/v3/company/:realmId/:entity/:id', api('GET /{entity}/{id}', readOne))
      .on('GET', '/v3/company/:realmId/:entity/:id/pdf', api('GET /{entity}/{id}/pdf', pdf))
      // https://developer.intuit.com/app/developer/qbo/docs/develop/authentication-and-authorization/oauth-2.0
      .on('GET', '/connect/oauth2', (ctx) => state.codes.authorize(ctx.query))
      .on('POST', QBO_DECISION_PATH, (ctx) => state.codes.decide(ctx.rawBody))
      .on('POST', '/oauth2/v1/tokens/bearer', (ctx) => {
        state.counters.byEndpoint['POST /oauth2/v1/tokens/bearer'] =
          (state.counters.byEndpoint['POST /oauth2/v1/tokens/bearer'] ?? 0) + 1;
        return state.tokens.handle(
          typeof ctx.headers.authorization === 'string' ? ctx.headers.authorization : undefined,
          ctx.body ?? ctx.rawBody,
          state.codes,
        );
      })
  );
}
