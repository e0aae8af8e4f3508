/**
 * The journal of a swap, its commit point, and the recovery that carries out what a killed synth
 * left: each step done only when its source is still there, so a run killed at any step is
 * completed by the next.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UnreadableInputError } from '../model/bounded-read';
import { ClusterTlsError } from '../model/errors';
import { EARLIER_OUTPUT_MARKER_FILE, FILES_FOLDER, OUTPUT_MARKER_FILE, readOutputMarker } from '../model/output-layout';
import { displayPath } from './display-path';
import { checkReplaceable } from './guards';
import { SwapPaths, besideStaging, exists, fsStep, inspect, readSmall, removeQuietly } from './swap-files';

/** The content of the journal: every path relative to the output's parent folder. */
export interface Journal {
  readonly staging: string;
  readonly previous: string;
  /** Whether an output folder was there to move aside. */
  readonly hadOutput: boolean;
  /**
   * The files folder replaced with the output folder, after it: its name beside the output folder,
   * staged at `<staging>.files`, moved aside to `<staging>.files-previous`.
   */
  readonly files?: { readonly target: string; readonly hadOutput: boolean };
  readonly record?: { readonly from: string; readonly to: string };
}

/** One folder a journal replaces: where it is, where its new content is staged, where the old goes. */
interface FolderSwap {
  readonly target: string;
  readonly staging: string;
  readonly previous: string;
  readonly hadOutput: boolean;
}

/** The folders a journal replaces, absolute, in the order the swap replaces them: the output folder, then the files folder. */
function foldersOf(paths: SwapPaths, journal: Journal): FolderSwap[] {
  const staging = path.join(paths.parent, journal.staging);
  return [
    { target: paths.target, staging, previous: path.join(paths.parent, journal.previous), hadOutput: journal.hadOutput },
    ...(journal.files ? [{ target: path.join(paths.parent, journal.files.target), staging: besideStaging(staging, 'files'), previous: besideStaging(staging, 'files-previous'), hadOutput: journal.files.hadOutput }] : []),
  ];
}

/** Options of the recovery (and of {@link OutputSwap.open}, which runs it first). */
export interface RecoveryOptions {
  /**
   * Whether files no synth wrote may be deleted with the old output (keys never are), when a
   * killed synth's journal is about to move the output folder aside; the caller checks the folder
   * it replaces itself.
   * @default false
   */
  readonly takeOver?: boolean;
  /**
   * The same, for the files folder.
   * @default false
   */
  readonly takeOverFiles?: boolean;
}

/** Writes the journal whole: to a staging name, then renamed into place. */
export function writeJournal(paths: SwapPaths, journal: Journal, nonce: string): void {
  const temporary = besideStaging(paths.staging(nonce), 'journal');
  try {
    fsStep(paths.journal, 'write the journal of the swap', () => {
      fs.writeFileSync(temporary, `${JSON.stringify(journal)}\n`);
      fs.renameSync(temporary, paths.journal);
    });
  } catch (e) {
    removeQuietly(temporary);
    throw e;
  }
}

/**
 * Puts one folder's staged content in its place, when it is still staged: the old folder is moved
 * aside first. An old folder that is gone since (deleted by hand, or by the cdk8s CLI, which
 * deletes its own output folder before it runs the app) leaves an empty folder in its place aside,
 * so that a swapped folder always has both its new content and its previous one.
 */
function swapFolder(folder: FolderSwap): void {
  if (exists(folder.staging)) {
    if (folder.hadOutput && !exists(folder.previous)) {
      if (exists(folder.target)) {
        fs.renameSync(folder.target, folder.previous);
      } else {
        fs.mkdirSync(folder.previous);
      }
    }
    fs.renameSync(folder.staging, folder.target);
  }
}

/** Whether a folder's new content holds its place, with the previous one set aside when there was one. */
function isSwapped(folder: FolderSwap): boolean {
  return !exists(folder.staging) && exists(folder.target) && (!folder.hadOutput || exists(folder.previous));
}

/**
 * Gives a folder its old content back: new content in its place is set aside again (to its staging
 * name, deleted afterwards), and the old folder, when moved aside, is moved back. Each step is done
 * only when its source is there, so a kill between them is finished by the next run.
 */
function restoreFolder(folder: FolderSwap): void {
  if (isSwapped(folder)) {
    fs.renameSync(folder.target, folder.staging);
  }
  if (folder.hadOutput && !exists(folder.target) && exists(folder.previous)) {
    fs.renameSync(folder.previous, folder.target);
  }
}

/**
 * Carries out a journal: each step is done only when its source is still there, so a run killed
 * at any step is completed by the next, step by step. The output folder is replaced first, then
 * the files folder; the record follows once both new folders hold their places. When a folder is
 * neither staged nor swapped (its staged content deleted by hand after a kill), every folder gets
 * its old content back instead and the record stays the old one, unless the record has moved
 * already: the new version is then the one on record, and what is missing of it the next synth
 * writes again.
 */
export function complete(paths: SwapPaths, journal: Journal, recordFile?: string): void {
  const folders = foldersOf(paths, journal);
  // The record this run is given wins over the journal's relative path: the project may have moved
  // since, and a record outside it did not move with it.
  const record = journal.record && (recordFile !== undefined
    ? { from: path.join(path.dirname(path.resolve(recordFile)), besideStaging(journal.staging, 'record')), to: path.resolve(recordFile) }
    : { from: path.resolve(paths.parent, journal.record.from), to: path.resolve(paths.parent, journal.record.to) });
  const recordMoved = record !== undefined && !exists(record.from);
  const swapped = recordMoved || folders.every((f) => exists(f.staging) || isSwapped(f));
  for (const folder of folders) {
    (swapped ? swapFolder : restoreFolder)(folder);
  }
  if (swapped && record !== undefined && exists(record.from)) {
    fs.renameSync(record.from, record.to);
  }
  fs.unlinkSync(paths.journal);
  removeQuietly(swapped ? undefined : record?.from);
  for (const folder of folders) {
    removeQuietly(folder.previous);
    removeQuietly(swapped ? undefined : folder.staging);
  }
}

/**
 * Undoes a journal whose new output has not taken the output folder's place (the files folder is
 * replaced only after it): the old output goes back if it was moved aside, then the journal and the
 * staged copies are deleted.
 * @returns whether the old output and record are in place again
 */
export function rollBack(paths: SwapPaths, journal: Journal): boolean {
  const [output, ...others] = foldersOf(paths, journal);
  try {
    if (!exists(output.staging)) {
      return false;
    }
    if (!exists(output.target) && exists(output.previous)) {
      fs.renameSync(output.previous, output.target);
    }
    fs.unlinkSync(paths.journal);
  } catch {
    return false;
  }
  for (const folder of [output, ...others]) {
    removeQuietly(folder.staging);
  }
  removeQuietly(journal.record && path.resolve(paths.parent, journal.record.from));
  return true;
}

/**
 * Finishes what a killed synth left: a journal is completed; staging folders, record copies and
 * old outputs that no journal names are deleted (the synth that wrote them never reached its
 * commit point, or had passed it and was deleting the old output). Only names a swap of this
 * folder makes are touched.
 */
export function recover(paths: SwapPaths, recordFile: string | undefined, options: RecoveryOptions, filesPaths?: SwapPaths): void {
  fsStep(paths.journal, 'finish the swap a killed synth left', () => {
    const journal = readJournal(paths);
    if (journal !== undefined) {
      for (const [index, folder] of foldersOf(paths, journal).entries()) {
        if (exists(folder.staging) && exists(folder.target) && !exists(folder.previous)) {
          if (!folder.hadOutput) {
            // Made since the kill (by another output folder's synth, say): the journal would rename onto it.
            throw new ClusterTlsError(`${displayPath(folder.target)}: received a folder made since a synth was killed whose journal replaces it; `
              + `expected none there: move it away, then synthesize again, and the killed synth's output is put in place`);
          }
          // The folder is about to be moved aside and deleted: what was put in it since the kill is checked as at any synth.
          inspect(folder.target, index > 0);
          checkReplaceable(folder.target, new Set(), (index === 0 ? options.takeOver : options.takeOverFiles) ?? false);
        }
      }
      complete(paths, journal, recordFile);
    }
    for (const entry of fs.readdirSync(paths.parent)) {
      // The files folder's own lock files, of a synth killed while it took that lock.
      if (paths.isLeftover(entry) || filesPaths?.isLeftover(entry, 'lock') || filesPaths?.isLeftover(entry, 'stale-lock')) {
        removeQuietly(path.join(paths.parent, entry));
      }
    }
    const folder = recordFile === undefined ? undefined : path.dirname(path.resolve(recordFile));
    if (folder !== undefined && folder !== paths.parent && exists(folder)) {
      for (const entry of fs.readdirSync(folder)) {
        if (paths.isLeftover(entry, 'record')) {
          removeQuietly(path.join(folder, entry));
        }
      }
    }
  });
}

/**
 * The journal a killed synth left, or undefined. Refused in one line, before anything is moved,
 * when it is not one a synth writes: names other than a swap's own, or a staged output that is not
 * a folder holding a synth's marker.
 */
function readJournal(paths: SwapPaths): Journal | undefined {
  let text: string | undefined;
  try {
    text = readSmall(paths.journal);
  } catch (e) {
    if (!(e instanceof UnreadableInputError)) {
      throw e;
    }
    text = '';
  }
  if (text === undefined) {
    return undefined;
  }
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const staging = parsed?.staging;
  const record = parsed?.record;
  const files = parsed?.files;
  const relativeName = (p: unknown) => typeof p === 'string' && !path.isAbsolute(p);
  // A folder the journal names is absent, or a staged output of a synth's.
  const stagedOrGone = (name: string) => !exists(path.join(paths.parent, name)) || isStagedOutput(path.join(paths.parent, name));
  const ofStaging = typeof staging === 'string' && paths.isLeftover(staging) && !/\.[a-z-]+$/.test(staging.replace(/^.*staging-/, ''));
  const output = () => parsed.previous === besideStaging(staging, 'previous') && typeof parsed.hadOutput === 'boolean' && stagedOrGone(staging);
  const ofRecord = () => record === undefined || (relativeName(record?.from) && relativeName(record.to)
    && path.basename(record.from) === besideStaging(staging, 'record') && path.dirname(record.from) === path.dirname(record.to));
  const ofFiles = () => files === undefined || (typeof files?.hadOutput === 'boolean' && files.target === FILES_FOLDER && files.target !== paths.name
    && stagedOrGone(besideStaging(staging, 'files')));
  const valid = ofStaging && output() && ofRecord() && ofFiles();
  if (!valid) {
    throw new ClusterTlsError(`${displayPath(paths.journal)}: received a file that is not a journal synth writes; expected the journal of a killed synth, or none: `
      + `delete it, then check that ${displayPath(paths.target)} holds the output you expect`);
  }
  return parsed;
}

/** Whether a path is a folder holding the marker of a synth output (a staged output, not a user's file). */
function isStagedOutput(folder: string): boolean {
  try {
    if (!fs.lstatSync(folder).isDirectory()) {
      return false;
    }
    // A killed synth of an earlier release staged its output with the marker of then.
    return readOutputMarker(folder, [OUTPUT_MARKER_FILE, EARLIER_OUTPUT_MARKER_FILE]) !== undefined;
  } catch {
    return false;
  }
}
