/**
 * Waiting for a started program to say it is ready, and stopping programs, for the control plane
 * of the tests and of the playground (control-plane.ts).
 */
import { ChildProcess } from 'node:child_process';

/**
 * Resolves once `child` prints `text` on `stream` (which it then keeps reading, so that the
 * program never blocks on a full pipe); rejects with the end of what it printed when it exits
 * first or takes more than two minutes.
 */
export function untilPrinted(child: ChildProcess, stream: 'stdout' | 'stderr', text: string, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let printed = '';
    const fail = (why: string) => { clearTimeout(timer); reject(new Error(`${what} ${why}: ${printed.slice(-2000)}`)); };
    const timer = setTimeout(() => fail('did not start within 120 s'), 120_000);
    child.stderr!.on('data', (d) => { printed = (printed + d).slice(-100_000); });
    child[stream]!.on('data', (d) => {
      if (stream === 'stdout') {
        printed = (printed + d).slice(-100_000);
      }
      if (printed.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => fail(`stopped (exit ${code})`));
  });
}

/**
 * Stops programs one after the other, each waited for: by closing its standard input when it has
 * one (the launcher then stops etcd and kube-apiserver itself), else by SIGTERM.
 */
export async function stopAll(programs: readonly ChildProcess[]): Promise<void> {
  for (const program of programs) {
    if (program.exitCode !== null || program.signalCode !== null) {
      continue;
    }
    const stopped = new Promise((resolve) => program.on('exit', resolve));
    if (program.stdin) {
      program.stdin.end();
    } else {
      program.kill('SIGTERM');
    }
    await stopped;
  }
}
