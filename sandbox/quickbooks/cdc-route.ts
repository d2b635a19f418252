import type { RouteContext, RouteResult } from '../kit/router.js';
import { type EmulatorState, responseTime } from './emulator-state.js';
import type { DocKind } from './model.js';
import { ok, qboFaults } from './qbo-fault.js';
import { parseQboInstant } from './qbo-time.js';

/**
 * `GET /v3/company/:realmId/cdc?entities=Invoice,CreditMemo&changedSince=<ISO>`, change data capture:
 * https://developer.intuit.com/app/developer/qbo/docs/learn/explore-the-quickbooks-online-api/change-data-capture
 * - changedSince more than 30 days back (emulator clock) → 400 ValidationFault;
 * - full payloads of records changed since then, and `{"domain":"QBO","status":"Deleted","Id","MetaData"}`
 *   stubs for deletes;
 * - at most 1,000 objects in all, the OLDEST first across the entities asked for (Intuit does not say
 *   which it keeps); each entity block says `totalCount`, so a client can see it was cut.
 */
export const CDC_MAX_OBJECTS = 1000;
const ENTITIES: readonly string[] = ['Invoice', 'CreditMemo', 'Customer'];

export function cdcRoute(state: EmulatorState) {
  return (ctx: RouteContext): RouteResult => {
    state.counters.cdcCalls += 1;
    const time = responseTime(state);
    const entitiesParam = ctx.query.get('entities');
    const sinceParam = ctx.query.get('changedSince');
    if (!entitiesParam || !sinceParam) {
      return qboFaults.validation(
        '2020',
        'Required param missing, need to supply the required value for the API',
        'Required parameter entities and changedSince are missing in the request',
        time,
      );
    }
    const entities = entitiesParam
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entities.find((e) => !ENTITIES.includes(e));
    if (bad)
      return qboFaults.validation(
        '2010',
        'Request has invalid or unsupported property',
        `Invalid entity for CDC: ${bad}`,
        time,
      );
    const since = parseQboInstant(sinceParam, state.offsetMinutes);
    if (since === undefined)
      return qboFaults.validation(
        '2010',
        'Request has invalid or unsupported property',
        `changedSince is not a date time: ${sinceParam}`,
        time,
      );
    if (since < state.clock.now() - 30 * 86_400_000) {
      return qboFaults.validation(
        '2010',
        'Request has invalid or unsupported property',
        'changedSince: you can look back at most 30 days',
        time,
      );
    }
    const all = entities.flatMap((entity) =>
      state.store.changesSince(entity as DocKind | 'Customer', since).map((c) => ({ ...c, entity })),
    );
    all.sort(
      (a, b) => a.at - b.at || ENTITIES.indexOf(a.entity) - ENTITIES.indexOf(b.entity) || Number(a.id) - Number(b.id),
    );
    const kept = all.slice(0, CDC_MAX_OBJECTS);
    const blocks = entities.map((entity) => {
      const items = kept.filter((c) => c.entity === entity).map((c) => c.json);
      const totalCount = all.filter((c) => c.entity === entity).length;
      return items.length ? { [entity]: items, startPosition: 1, maxResults: items.length, totalCount } : {};
    });
    return ok({ CDCResponse: [{ QueryResponse: blocks }], time });
  };
}
