import { type Command, InvalidArgumentError } from 'commander';
import { approveReview } from '../../operations/review-approve.js';
import { listReview, type ReviewItem } from '../../operations/review-list.js';
import { rejectReview } from '../../operations/review-reject.js';
import { showReview } from '../../operations/review-show.js';
import { summarizeReview } from '../../operations/review-summary.js';
import { ENTITY_NAMES, isEntityName } from '../../src/connector/entities.js';
import { ConfigError } from '../../src/errors/index.js';
import { AUDITED } from '../../operations/audited-actions.js';
import { audited } from '../../operations/audited.js';
import { cliAuditor, withRuntime } from '../context.js';
import { requiredOption } from '../required-option.js';

type Opts = {
  connection: string;
  entity?: string;
  erpId?: string[];
  all?: boolean;
  note?: string;
  by?: string;
  json?: boolean;
  config?: string;
};

function entityOption(value: string): string {
  if (!isEntityName(value))
    throw new InvalidArgumentError(`--entity must be one of ${ENTITY_NAMES.join(', ')}, got "${value}"`);
  return value;
}

const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)];

/** One line of `review list`. */
function line(i: ReviewItem): string {
  const doc = i.number ? `${i.number} ${i.total} ${i.currency}` : '';
  const state = i.state === 'rejected' ? `REJECTED by ${i.by}: ${i.note}` : `held ${new Date(i.since).toISOString()}`;
  return `${i.connection} ${i.entity}/${i.erpId}  ${i.rule.padEnd(16)} ${doc}${i.customer ? `  ${i.customer}` : ''}  ${state}`;
}

/** --erp-id (one or several, or comma-separated) or --all, never neither. */
function selection(o: Opts, verb: string) {
  if (!o.all && !o.erpId?.length) throw new ConfigError(`review ${verb} needs --erp-id (one or more) or --all`);
  return { connection: o.connection, entity: o.entity, erpIds: o.all ? undefined : o.erpId, all: o.all };
}

const withConfig = (c: Command) =>
  c.option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)');

/** `erp-sync review list|show|summary|approve|reject`: records held for review before write (`connections[].review`). */
export function registerReviewCommand(program: Command): void {
  const review = program
    .command('review')
    .description('records held for review before write: list, show, summary, approve, reject');
  registerList(review);
  registerShow(review);
  registerSummary(review);
  registerApprove(review);
  registerReject(review);
}

function registerList(review: Command): void {
  withConfig(review.command('list').description('held and rejected records, with the rule that held each'))
    .option('--connection <id>', 'one connection (default: every one)')
    .option('--json', 'print JSON')
    .action(async (o: Opts) =>
      withRuntime(o.config, async (rt) => {
        const items = await listReview(rt, o.connection);
        if (o.json) return void console.log(JSON.stringify(items, null, 2));
        for (const i of items) console.log(line(i));
        console.log(
          `${items.filter((i) => i.state === 'held').length} held, ${items.filter((i) => i.state === 'rejected').length} rejected`,
        );
      }),
    );
}

function registerShow(review: Command): void {
  withConfig(review.command('show').description('one record: the body that would be sent and the rule that held it'))
    .addOption(requiredOption('--connection <id>', 'connection id'))
    .addOption(requiredOption('--entity <name>', 'invoices | credit-notes | customers', entityOption))
    .addOption(requiredOption('--erp-id <id>', 'the ERP record id'))
    .action(async (o: Opts & { erpId: string }) =>
      withRuntime(o.config, async (rt) => {
        const r = await showReview(rt, o.connection, o.entity!, String(o.erpId));
        if (!r) {
          process.exitCode = 1;
          return void console.log(`${o.entity}/${o.erpId} is not held for review`);
        }
        console.log(JSON.stringify(r, null, 2));
      }),
    );
}

function registerSummary(review: Command): void {
  withConfig(
    review
      .command('summary')
      .description("what the connection's held records add up to (a first sync's, to approve at once)"),
  )
    .addOption(requiredOption('--connection <id>', 'connection id'))
    .option('--largest <n>', 'how many of the largest documents', (v) => Number.parseInt(v, 10), 10)
    .option('--json', 'print JSON')
    .action(async (o: Opts & { largest: number }) =>
      withRuntime(o.config, async (rt) => {
        const s = await summarizeReview(rt, o.connection, o.largest);
        if (o.json) return void console.log(JSON.stringify(s, null, 2));
        console.log(
          `${s.connection}: ${s.held} held (${
            Object.entries(s.byEntity)
              .map(([e, n]) => `${n} ${e}`)
              .join(', ') || 'none'
          })`,
        );
        for (const t of s.totals) console.log(`  ${t.entity} in ${t.currency}: ${t.count}, total ${t.total}`);
        if (s.largest.length) console.log('largest:');
        for (const i of s.largest) console.log(`  ${line(i)}`);
        console.log(`customers to be created: ${s.customersToCreate.length}`);
        for (const c of s.customersToCreate) console.log(`  ${c.buyerId}${c.name ? `  ${c.name}` : ''}`);
      }),
    );
}

/** approve and reject: the same selection of held records, and who decides. */
const decision = (review: Command, name: string, description: string) =>
  withConfig(review.command(name).description(description))
    .addOption(requiredOption('--connection <id>', 'connection id'))
    .option('--entity <name>', 'invoices | credit-notes | customers', entityOption)
    .option('--erp-id <ids>', 'one record, or several (repeat, or comma-separated)', collect)
    .option('--all', 'every held record of the connection (of --entity, if given)')
    .option('--by <name>', 'who decides (default: $USER)');

const decidedBy = (o: Opts) => o.by ?? process.env.USER ?? 'erp-sync';

function registerApprove(review: Command): void {
  decision(
    review,
    'approve',
    'write the selected held records to billing (--all on a first-sync connection approves its first sync)',
  ).action(async (o: Opts) =>
    withRuntime(o.config, async (rt) => {
      const by = decidedBy(o);
      // A usage error (exit 2) is no action: checked before anything is audited.
      const s = selection(o, 'approve');
      rt.connection(o.connection);
      const about = { action: AUDITED.approve.action, connection: o.connection };
      const approve = () => approveReview(rt, s, by);
      const r = await audited(cliAuditor(rt, by), about, approve, (x) => x.told);
      console.log(
        `approved ${r.approved} by ${by}: enqueued for upsert${r.firstSyncApproved ? `; the first sync of ${o.connection} is approved` : ''}${r.notHeld ? ` (${r.notHeld} selected were rejected, not held)` : ''}`,
      );
      if (!r.approved && !r.firstSyncApproved) process.exitCode = 1;
    }),
  );
}

function registerReject(review: Command): void {
  decision(
    review,
    'reject',
    'do not write the selected held records; held as rejected until the source changes them again',
  )
    .addOption(requiredOption('--note <text>', 'why'))
    .action(async (o: Opts) =>
      withRuntime(o.config, async (rt) => {
        const by = decidedBy(o);
        const s = selection(o, 'reject');
        rt.connection(o.connection);
        const about = { action: AUDITED.reject.action, connection: o.connection };
        const reject = () => rejectReview(rt, s, { by, note: o.note! });
        const r = await audited(cliAuditor(rt, by), about, reject, (x) => x.told);
        console.log(`rejected ${r.rejected} by ${by}${r.notHeld ? ` (${r.notHeld} selected were not held)` : ''}`);
        if (!r.rejected) process.exitCode = 1;
      }),
    );
}
