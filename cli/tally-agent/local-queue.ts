import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentBatch } from '../../connectors/tally/streams/agent-batch.js';

/**
 * The agent's small on-disk queue under `--state-dir`: the batches read from TallyPrime and not yet
 * acknowledged by the worker (`queue/<sequence>.json`), and where each stream stands (`position.json`, the
 * AlterID the worker last acknowledged). Every write goes to a temporary file, is fsync'd, renamed over the
 * real name and the directory fsync'd, so a power cut, a kill -9 or the PC sleeping leaves either the old
 * file or the new one, never half of one. A batch leaves the queue only once the worker has acknowledged it.
 */
export class LocalQueue {
  private readonly queueDir: string;

  constructor(private readonly stateDir: string) {
    this.queueDir = join(stateDir, 'queue');
  }

  async open(): Promise<void> {
    await mkdir(this.queueDir, { recursive: true });
    // A temporary file is a write a kill interrupted before its rename: it was never part of the queue.
    for (const name of await readdir(this.queueDir)) if (name.endsWith('.tmp')) await unlink(join(this.queueDir, name));
  }

  /** The queued batches, oldest first, with the name each is removed by. */
  async pending(): Promise<Array<{ name: string; batch: AgentBatch }>> {
    const names = (await readdir(this.queueDir)).filter((n) => /^\d{12}\.json$/.test(n)).sort();
    const out: Array<{ name: string; batch: AgentBatch }> = [];
    for (const name of names)
      out.push({ name, batch: AgentBatch.parse(JSON.parse(await readFile(join(this.queueDir, name), 'utf8'))) });
    return out;
  }

  /** Adds a batch at the end of the queue, durably, before it is sent. */
  async put(batch: AgentBatch): Promise<string> {
    const names = (await readdir(this.queueDir)).filter((n) => /^\d{12}\.json$/.test(n)).sort();
    const next = names.length === 0 ? 1 : Number(names.at(-1)!.slice(0, 12)) + 1;
    const name = `${String(next).padStart(12, '0')}.json`;
    await writeDurably(this.queueDir, name, JSON.stringify(batch));
    return name;
  }

  async remove(name: string): Promise<void> {
    await unlink(join(this.queueDir, name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    await syncDir(this.queueDir);
  }

  /** The AlterID each stream's batches were acknowledged up to (absent: never, or the file was lost). */
  async positions(): Promise<Record<string, number>> {
    try {
      return JSON.parse(await readFile(join(this.stateDir, 'position.json'), 'utf8')) as Record<string, number>;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
  }

  async setPosition(entity: string, alterId: number): Promise<void> {
    const all = { ...(await this.positions()), [entity]: alterId };
    await writeDurably(this.stateDir, 'position.json', JSON.stringify(all));
  }
}

async function writeDurably(dir: string, name: string, text: string): Promise<void> {
  const tmp = join(dir, `${name}.${process.pid}.tmp`);
  const f = await open(tmp, 'w');
  try {
    await f.writeFile(text, 'utf8');
    await f.sync();
  } finally {
    await f.close();
  }
  await rename(tmp, join(dir, name));
  await syncDir(dir);
}

/** The directory's entry for a renamed or removed file, on disk (a no-op where directories cannot be opened: Windows). */
async function syncDir(dir: string): Promise<void> {
  let d;
  try {
    d = await open(dir, 'r');
  } catch {
    return;
  }
  try {
    await d.sync().catch(() => {});
  } finally {
    await d.close();
  }
}
