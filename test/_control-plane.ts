/**
 * {@link ControlPlane}: a real control plane for one test file, run from the programs
 * scripts/build-control-plane.sh builds from Go modules (etcd and kube-apiserver started by the
 * launcher, kube-controller-manager's garbage collector, cert-manager's controllers and webhook).
 * It is started by tools/playground/control-plane.ts, the module the playground starts its own
 * with; where the programs are, and `describeWithTools`, are in `_programs.ts` (re-exported here).
 *
 * Every program started here stops when the test process ends, however it ends: the launcher,
 * the webhook and the controllers stop when their standard input closes, and the garbage
 * collector when its log pipe breaks.
 *
 * @live a suite that imports this module, directly or through a helper, is in `npm test` only, not
 * in `npm run test:fast` (test/_tiers.js)
 */
import type { Program } from './_programs';

export { ControlPlane } from '../tools/playground/control-plane';
export { TOOLS_BIN, describeWithTools, missingTools, tool, until } from './_programs';
export type { Program } from './_programs';

/** The programs a {@link ControlPlane} runs. */
export const CONTROL_PLANE_TOOLS: readonly Program[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl', 'launcher', 'cert-manager-controller', 'cert-manager-webhook'];
