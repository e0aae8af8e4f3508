/**
 * The real programs built from Go modules by scripts/build-control-plane.sh (etcd, kube-apiserver,
 * kube-controller-manager and kubectl of one Kubernetes release, cert-manager's controllers and
 * webhook, cmctl, helm, the launcher, the Go TLS peer and the other small Go programs): where they
 * are, whether they are built from the current sources, and `describeWithTools` for the suites that
 * need them. Outside CI a suite whose programs are missing or out of date is skipped with its reason
 * printed; under CI (CI=true) it runs and fails with what to do.
 *
 * Running one of these programs for a test is not live in the sense of test/_tiers.js; starting a
 * control plane is (`_control-plane.ts`).
 */
import { type Program, missingTools } from '../tools/playground/programs';

export { TOOLS_BIN, missingTools, tool } from '../tools/playground/programs';
export type { Program } from '../tools/playground/programs';

const inCi = process.env.CI === 'true';

/**
 * `describe` when the programs are there or under CI, else `describe.skip` after printing why.
 * Under CI a suite whose programs are missing gets one failing test saying what to run.
 */
export function describeWithTools(what: string, names: readonly Program[], body: () => void): void {
  const missing = missingTools(names);
  if (missing.length === 0) {
    describe(what, body);
    return;
  }
  const why = `${missing.join(', ')} not built from the current sources (run scripts/build-control-plane.sh; .ci/run does)`;
  if (inCi) {
    describe(what, () => {
      test('has the programs it needs', () => {
        throw new Error(`CI=true but ${why}`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.log(`skipping ${what}: ${why}; under CI=true the suite fails instead`);
  describe.skip(what, body);
}

/** Waits until `done` holds, polling every `every` ms; throws with `why()` after `ms`. */
export async function until(done: () => boolean, why: () => string, ms = 60_000, every = 20): Promise<void> {
  for (const start = Date.now(); !done(); await new Promise((r) => setTimeout(r, every))) {
    if (Date.now() - start > ms) {
      throw new Error(`timed out: ${why()}`);
    }
  }
}
