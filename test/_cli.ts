/** The `cluster-tls` command run in-process, as the tests of its options and reports run it. */
import { CliIo, main } from '../bin/cluster-tls';

/** What one run of the command did. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command with `argv` (after `cluster-tls`), standard input holding `stdin`. */
export async function cli(argv: readonly string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; }, readStdin: async () => stdin };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
