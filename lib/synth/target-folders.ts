/**
 * The places the targets of one `synthesizeAll` write, checked against each other before any is
 * written: each synth replaces its output folder and the files folder beside it whole, and writes
 * its record, so no target's folder or record may be another's, or lie inside another's folders.
 */
import { ClusterTlsError, Description, describeValue, inputErrorMessage } from '../model/errors';
import * as layout from '../model/output-layout';
import { displayPath } from './display-path';
import { isWithin, realPath } from './swap-files';

/** Where one target writes: its output folder and its record, as absolute paths. */
export interface TargetPaths {
  readonly outdir: string;
  readonly recordFile: string;
}

/** What each refusal of targets whose places overlap asks for. */
const APART = 'a path apart from every other target\'s output folder, files folder and record, since each synth replaces its folders whole: '
  + 'give each target a folder of its own, such as east/dist and west/dist, each with its files folder and record beside it';

/**
 * Refuses targets that write one place: one output folder, one record, one files folder (two output
 * folders in one folder), or a folder or record of one inside a folder of another, compared where
 * the paths lead (links of their folders resolved). The refusal names both targets.
 */
export function checkTargetsApart(paths: readonly TargetPaths[]): void {
  for (const [i, p] of paths.entries()) {
    const folder = paths.findIndex((q) => q.outdir === p.outdir);
    const record = paths.findIndex((q) => q.recordFile === p.recordFile);
    if (folder < i) {
      refuse(i, 'outdir', p.outdir, `an output folder no other target has (targets[${folder}] writes it)`);
    }
    if (record < i) {
      refuse(i, 'recordFile', p.recordFile, `a record no other target has (targets[${record}] writes it)`);
    }
  }
  const places = paths.map((p) => ({ ...p, filesFolder: layout.filesFolderOf(p.outdir) }));
  for (const [i, p] of places.entries()) {
    const shared = places.findIndex((q) => realPath(q.filesFolder) === realPath(p.filesFolder));
    if (shared < i) {
      refuse(i, 'outdir', new Description(`${describeValue(p.outdir)}, whose files folder ${displayPath(p.filesFolder)} is the files folder of targets[${shared}] (${displayPath(places[shared].outdir)}) too`), APART);
    }
  }
  for (const [i, p] of places.entries()) {
    for (const [j, other] of places.entries()) {
      if (j === i) {
        continue;
      }
      const folders = [['output folder', other.outdir], ['files folder', other.filesFolder]] as const;
      for (const [what, folder] of folders) {
        const inside = (given: string) => isWithin(realPath(folder), realPath(given));
        const where = `inside the ${what} of targets[${j}] (${displayPath(folder)})`;
        if (inside(p.outdir)) {
          refuse(i, 'outdir', new Description(`${describeValue(p.outdir)}, ${where}`), APART);
        }
        if (inside(p.filesFolder)) {
          refuse(i, 'outdir', new Description(`${describeValue(p.outdir)}, whose files folder ${displayPath(p.filesFolder)} is ${where}`), APART);
        }
        if (inside(p.recordFile)) {
          refuse(i, 'recordFile', new Description(`${describeValue(p.recordFile)}, ${where}`), APART);
        }
      }
    }
  }
}

/** Throws the refusal of a target's option. */
function refuse(index: number, option: 'outdir' | 'recordFile', received: unknown, expected: string): never {
  throw new ClusterTlsError(inputErrorMessage('ClusterTls', `synthesizeAll.targets[${index}].options.${option}`, received, expected));
}
