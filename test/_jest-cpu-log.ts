/**
 * Runs in every worker before each test file: when CLUSTER_TLS_CPU_LOG names a file, appends to it a
 * line when the file starts and one when its tests are done, each with the worker's process id, the
 * CPU-seconds of the worker and of the children it has waited for (/proc/self/stat: the programs a
 * file runs are counted), and the time. A file's CPU is from its start to the next start in the
 * same worker (which takes in the clean-up of its own afterAll, run after this file's), or to its
 * end when it was the worker's last. What the CPU time of CI and of the fast tier goes to is read
 * from it (docs/development/testing.md); it asserts nothing: speed is measured, not tested.
 */
import * as fs from 'node:fs';

const log = process.env.CLUSTER_TLS_CPU_LOG;

/** The CPU-seconds of this process and of the children it has waited for (Linux counts them in ticks of 1/100 s). */
function cpuSeconds(): number {
  // After the command's closing parenthesis, utime, stime, cutime and cstime are the 12th to 15th fields.
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
}

function record(event: 'start' | 'end'): void {
  fs.appendFileSync(log!, `${process.pid}\t${event}\t${cpuSeconds().toFixed(2)}\t${(Date.now() / 1000).toFixed(1)}\t${expect.getState().testPath}\n`);
}

if (log) {
  record('start');
  afterAll(() => record('end'));
}
