/** Whether a connection is pushed to by an agent (Tally in agent mode) rather than read by the worker. */
export function isAgentConnection(c: { system: string; settings?: unknown }): boolean {
  return c.system === 'tally' && (c.settings as { mode?: string } | undefined)?.mode === 'agent';
}
