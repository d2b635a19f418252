import type { ConfigIssue } from './config-issue.js';
import type { SystemName } from './connector/entities.js';

/** The vendor fields each system has, by the name a `fields` rule's `from` uses. */
const KINDS_BY_SYSTEM: Record<SystemName, readonly string[]> = {
  'zoho-books': ['customField', 'reportingTag'],
  quickbooks: ['customField'],
  xero: ['tracking'],
  tally: [],
};

const WHAT: Record<string, string> = {
  customField: 'custom fields',
  reportingTag: 'reporting tags',
  tracking: 'tracking categories',
};

interface ConnectionFields {
  id: string;
  system: SystemName;
  fields: ReadonlyArray<{ from: Record<string, string | undefined>; to: Record<string, string | undefined> }>;
}

/**
 * `connections[].fields` against the connection's system, once the schema has passed: a rule naming a
 * kind of field the vendor does not have (a Xero `customField`), two rules for the same field (the second
 * would never apply), two rules writing the same key (one would hide the other). Each issue names the
 * connection, so a config with several of them says which one to fix.
 */
export function fieldMappingIssues(connections: readonly ConnectionFields[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  connections.forEach((c, i) => {
    const allowed = KINDS_BY_SYSTEM[c.system];
    const sources = new Map<string, number>();
    const targets = new Map<string, number>();
    c.fields.forEach((rule, j) => {
      const at = ['connections', String(i), 'fields', String(j)];
      const who = `connection "${c.id}" (${c.system})`;
      const [kind, name] = Object.entries(rule.from).find(([, v]) => v !== undefined) ?? [];
      const [bucket, key] = Object.entries(rule.to).find(([, v]) => v !== undefined) ?? [];
      if (!kind || !bucket) return;
      if (!allowed.includes(kind)) {
        const has = allowed.length ? `it maps ${allowed.map((k) => k).join(' or ')}` : 'it maps none';
        issues.push({ path: [...at, 'from', kind], message: `${who} has no ${WHAT[kind]}: ${has}` });
        return;
      }
      const source = `${kind}:${name}`;
      const target = `${bucket}:${key}`;
      const first = sources.get(source);
      if (first !== undefined)
        issues.push({
          path: [...at, 'from'],
          message: `${who}: ${kind} "${name}" is already mapped by fields.${first}`,
        });
      else sources.set(source, j);
      const taken = targets.get(target);
      if (taken !== undefined)
        issues.push({
          path: [...at, 'to'],
          message: `${who}: ${bucket} "${key}" is already written by fields.${taken}`,
        });
      else targets.set(target, j);
    });
  });
  return issues;
}
