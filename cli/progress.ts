/** A one-line progress bar on a TTY, plain progress lines (at most every 2 s) otherwise. */
export function progressReporter(label: string, stream: NodeJS.WriteStream = process.stderr) {
  let lastLine = 0;
  let lastDone = -1;
  return {
    update(done: number, total: number, detail: string) {
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      if (stream.isTTY) {
        const width = 24;
        const fill = Math.round((pct / 100) * width);
        stream.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct}% ${detail}\x1b[K`);
      } else if (Date.now() - lastLine > 2000 || (done >= total && done !== lastDone)) {
        // At most every 2 s, plus once when the last window finishes.
        lastLine = Date.now();
        lastDone = done;
        stream.write(`${label}: ${done}/${total} windows (${pct}%) ${detail}\n`);
      }
    },
    end() {
      if (stream.isTTY) stream.write('\n');
    },
  };
}
