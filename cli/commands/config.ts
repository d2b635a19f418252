import type { Command } from 'commander';
import { tokenExpiryWarnings } from '../../src/auth/token-expiry.js';
import { billingTargetOf } from '../../src/billing/billing-target.js';
import { redactUrlCredentials } from '../../src/observability/logger.js';
import { loadAppConfig, configPath } from '../context.js';
import { connectorFor } from '../../connectors/registry.js';
import type { AppConfig, ConnectionConfig } from '../../src/config.js';
import { documentLinksOffReason } from '../../src/documents/document-links.js';

/** Why a connection whose vendor serves PDFs gets no links to them in billing (docs/configuration.md, http.documentLinkKey). */
function pdfLinksNote(config: AppConfig, c: ConnectionConfig): string {
  if (!connectorFor(c.system).documents) return '';
  const off = documentLinksOffReason(config.http);
  return off ? `; no PDF links in billing: ${off}` : '; PDF links in billing';
}

/** `erp-sync config check --config F`: parse and validate; print every problem with its path. */
export function registerConfigCommand(program: Command): void {
  program
    .command('config')
    .description('configuration tools')
    .command('check')
    .description('validate a config file: every error is reported with its path')
    .option('--config <file>', 'YAML config (default: $ERP_SYNC_CONFIG or ./erp-sync.yaml)')
    .action(async (opts: { config?: string }) => {
      const config = await loadAppConfig(opts.config);
      console.log(`${configPath(opts.config)}: valid`);
      for (const c of config.connections) {
        // The billing company by name or key fingerprint, never the key.
        const t = billingTargetOf(config, c);
        console.log(
          `  connection ${c.id}: ${c.system} → ${c.originSource}, entities ${c.entities.join(', ')}, every ${c.schedule.everySeconds}s; ` +
            `billing company ${t.company} (${t.baseCurrency}${t.attachmentKey ? '' : ', no attachment key: document links are not attached'})` +
            pdfLinksNote(config, c),
        );
      }
      for (const warning of tokenExpiryWarnings(config.http.tokens, Date.now())) console.log(`  warning: ${warning}`);
      console.log(
        `  billing ${redactUrlCredentials(config.billing.url)} (base currency ${config.billing.baseCurrency}, ${config.billing.rateLimit.max}/${config.billing.rateLimit.durationMs}ms per ${config.billing.rateLimit.scope})`,
      );
    });
}
