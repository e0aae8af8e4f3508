import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { ClusterCertificates, ClusterTlsError, TlsDatabaseCluster, MANIFESTS_ONLY_CONTEXT, OutputFile, renderApp, synthesize, synthesizeAll, synthesizeAllOrExit, synthesizeOrExit, writeOutput } from '../lib';
import { machineError } from '../lib/synth/machine-errors';
import { filesFolderOf } from '../lib/model/output-layout';
import { refusal } from './_refusal';

function tmpdir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-synth-'));
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

function demoApp(outdir: string, manifestsOnly = false): App {
  const app = new App({ outdir });
  if (manifestsOnly) {
    app.node.setContext(MANIFESTS_ONLY_CONTEXT, true);
  }
  const chart = new Chart(app, 'demo', { namespace: 'demo' });
  new ClusterCertificates(chart, 'certs', { clusterName: 'basic', components: ['store'] });
  new OutputFile(chart, 'notes', { path: 'demo/notes.md', content: { render: () => '# notes\n' } });
  new OutputFile(chart, 'script', { path: 'demo/run.sh', content: '#!/bin/sh\n', executable: true });
  return app;
}

describe('synthesize', () => {
  test('writes one manifest per chart, as App.synth() does, and the output files', () => {
    const dir = path.join(tmpdir(), 'dist');
    synthesize(demoApp(dir));
    // The manifests alone in the output folder; every other file in the files folder beside it.
    expect(listFiles(dir)).toEqual(['.cluster-tls-output', 'demo.k8s.yaml']);
    const files = filesFolderOf(dir);
    expect(files).toBe(path.join(path.dirname(dir), 'cluster-tls'));
    expect(listFiles(files)).toEqual(['.cluster-tls-output', 'demo/basic/tls-plan.json', 'demo/notes.md', 'demo/run.sh']);
    const stock = tmpdir();
    demoApp(stock, true).synth();
    expect(fs.readFileSync(path.join(dir, 'demo.k8s.yaml'), 'utf8')).toBe(fs.readFileSync(path.join(stock, 'demo.k8s.yaml'), 'utf8'));
    expect(fs.statSync(path.join(files, 'demo/run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(files, 'demo/notes.md')).mode & 0o777).toBe(0o644);
  });

  test('the output folder gets the mode of a new folder, as stock cdk8s leaves it, readable by a GitOps agent', () => {
    const dir = path.join(tmpdir(), 'dist');
    const umask = process.umask(0o022);
    try {
      synthesize(demoApp(dir));
    } finally {
      process.umask(umask);
    }
    expect((fs.statSync(dir).mode & 0o777).toString(8)).toBe('755');
    expect((fs.statSync(filesFolderOf(dir)).mode & 0o777).toString(8)).toBe('755');
  });

  test('files keep their modes (0644, scripts 0755) under a umask that takes more bits off', () => {
    const dir = path.join(tmpdir(), 'dist');
    const umask = process.umask(0o077);
    try {
      synthesize(demoApp(dir));
    } finally {
      process.umask(umask);
    }
    expect((fs.statSync(path.join(filesFolderOf(dir), 'demo/run.sh')).mode & 0o777).toString(8)).toBe('755');
    expect((fs.statSync(path.join(filesFolderOf(dir), 'demo/notes.md')).mode & 0o777).toString(8)).toBe('644');
    expect((fs.statSync(path.join(dir, 'demo.k8s.yaml')).mode & 0o777).toString(8)).toBe('644');
  });

  test('writes, file for file and byte for byte, what renderApp renders, and says what it wrote', () => {
    const dir = path.join(tmpdir(), 'dist');
    const build = () => {
      const app = demoApp(dir);
      const second = new Chart(app, 'second', { namespace: 'second' });
      new ClusterCertificates(second, 'certs', { clusterName: 'other', components: ['store', 'coordinator'] });
      return app;
    };
    const rendered = renderApp(build());
    const result = synthesize(build());
    expect(result.outdir).toBe(path.resolve(dir));
    const manifests = rendered.files.slice(0, rendered.manifestFiles);
    const others = rendered.files.slice(rendered.manifestFiles);
    expect(result.files).toEqual([...manifests.map((f) => f.path), '.cluster-tls-output']);
    expect(result.filesFolder).toBe(filesFolderOf(dir));
    expect(result.otherFiles).toEqual([...others.map((f) => f.path), '.cluster-tls-output']);
    expect(result.manifestFiles).toBe(rendered.manifestFiles);
    expect(result.objects).toBe(rendered.objects.length);
    expect(result.objects).toBeGreaterThan(0);
    for (const [i, f] of rendered.files.entries()) {
      const folder = i < rendered.manifestFiles ? dir : result.filesFolder;
      expect([f.path, fs.readFileSync(path.join(folder, f.path), 'utf8')]).toEqual([f.path, f.content]);
    }
    expect(listFiles(dir)).toEqual([...result.files].sort());
    expect(listFiles(result.filesFolder)).toEqual([...result.otherFiles].sort());
  });

  test('a manifest file extension that would leave the output folder is refused', () => {
    const app = new App({ outdir: path.join(tmpdir(), 'dist'), outputFileExtension: '/../../escape.yaml' });
    new ClusterCertificates(new Chart(app, 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'basic' });
    expect(() => renderApp(app)).toThrow(new ClusterTlsError('app: outputFileExtension: received "/../../escape.yaml"; '
      + 'expected a file extension that starts with a dot, such as ".k8s.yaml" or ".yaml", without \'/\''));
  });

  test('a file name longer than a file system takes is refused before anything is written, naming where it comes from', () => {
    const parent = tmpdir();
    const app = new App({ outdir: path.join(parent, 'dist'), outputFileExtension: `.${'a'.repeat(300)}` });
    new ClusterCertificates(new Chart(app, 'demo', { namespace: 'demo' }), 'certs', { clusterName: 'basic', components: ['store'] });
    expect(() => synthesize(app)).toThrow(new ClusterTlsError(`app: path: received a file name of 305 bytes ("demo.${'a'.repeat(35)}…"); expected at most 255, `
      + 'the longest name a file system takes: shorten the chart, namespace, cluster or release name, or the file extension, that makes it'));
    expect(fs.readdirSync(parent)).toEqual([]);
    const own = Testing.app();
    new OutputFile(new Chart(own, 'demo'), 'long', { path: `notes/${'n'.repeat(256)}.md`, content: '' });
    expect(() => renderApp(own)).toThrow(/^demo\/long: path: received a file name of 259 bytes /);
  });

  test('a file declared with `when` is written only when it answers true at synth, after every construct was added', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo');
    let needed = false;
    new OutputFile(chart, 'maybe', { path: 'demo/maybe.md', content: 'yes\n', when: { isWritten: () => needed } });
    expect(renderApp(app).files.map((f) => f.path)).not.toContain('demo/maybe.md');
    needed = true;
    expect(renderApp(app).files.find((f) => f.path === 'demo/maybe.md')?.content).toBe('yes\n');
  });

  test('the same app gives the same bytes every time', () => {
    const a = renderApp(demoApp('x')).files;
    const b = renderApp(demoApp('x')).files;
    expect(a).toEqual(b);
  });

  test('replaces the previous output entirely, leaving nothing else beside it', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    const first = demoApp(dir);
    new OutputFile(Chart.of(first.node.findChild('demo')), 'stale', { path: 'stale.txt', content: 'old' });
    synthesize(first);
    expect(listFiles(filesFolderOf(dir))).toContain('stale.txt');
    synthesize(demoApp(dir));
    expect(listFiles(filesFolderOf(dir))).not.toContain('stale.txt');
    expect(fs.readdirSync(parent).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist']);
  });

  test('a folder holding files no synth wrote is refused in one line, and replaced only when the user says to take it over', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    fs.mkdirSync(path.join(dir, 'mine'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'mine', 'app.yaml'), 'kind: ConfigMap\n');
    expect(() => synthesize(demoApp(dir))).toThrow(new ClusterTlsError(`${dir}: received a folder no synth wrote (it has no valid .cluster-tls-output) holding mine/app.yaml; `
      + `expected an output folder of synthesized files only, or none: move them out, or set CLUSTER_TLS_TAKE_OVER=${dir} to replace the folder and delete them`));
    expect(fs.readFileSync(path.join(dir, 'mine', 'app.yaml'), 'utf8')).toBe('kind: ConfigMap\n');
    expect(fs.readdirSync(parent).sort()).toEqual(['dist']);
    synthesize(demoApp(dir), { takeOver: true });
    expect(listFiles(dir)).not.toContain('mine/app.yaml');
    // A file added later to a synthesized folder is refused too, naming it, in either folder.
    fs.writeFileSync(path.join(dir, 'added.md'), 'mine');
    expect(() => synthesize(demoApp(dir))).toThrow(new RegExp(`^${dir}: received files the last synth did not write \\(added\\.md\\); `));
    fs.rmSync(path.join(dir, 'added.md'));
    fs.writeFileSync(path.join(filesFolderOf(dir), 'demo', 'added.md'), 'mine');
    expect(() => synthesize(demoApp(dir))).toThrow(new RegExp(`^${filesFolderOf(dir)}: received files the last synth did not write \\(demo\\/added\\.md\\); `));
    fs.rmSync(path.join(filesFolderOf(dir), 'demo', 'added.md'));
    // An empty folder holds nothing to lose.
    const empty = path.join(tmpdir(), 'empty');
    fs.mkdirSync(empty);
    synthesize(demoApp(empty));
    expect(listFiles(empty)).toContain('demo.k8s.yaml');
    // Another output folder beside dist would share its files folder: refused, naming whose it is.
    const other = path.join(parent, 'other');
    expect(() => synthesize(demoApp(other), { recordFile: path.join(parent, 'other.lock.json') })).toThrow(new ClusterTlsError(`${filesFolderOf(dir)}: `
      + `received the files folder of the output folder dist; expected the files folder of ${other}, since each output folder keeps its other files in cluster-tls beside it: `
      + `put each output folder in a folder of its own, or, if dist is gone or renamed, set CLUSTER_TLS_TAKE_OVER=${filesFolderOf(dir)} to replace it`));
    expect(fs.existsSync(other)).toBe(false);
    // Consent for one folder is not consent for the other: taking dist over leaves a file of the files folder's alone.
    fs.writeFileSync(path.join(filesFolderOf(dir), 'mine.md'), 'mine');
    const env = process.env.CLUSTER_TLS_TAKE_OVER;
    process.env.CLUSTER_TLS_TAKE_OVER = dir;
    try {
      expect(() => synthesize(demoApp(dir))).toThrow(new RegExp(`^${filesFolderOf(dir)}: received files the last synth did not write \\(mine\\.md\\); `));
    } finally {
      if (env === undefined) {
        delete process.env.CLUSTER_TLS_TAKE_OVER;
      } else {
        process.env.CLUSTER_TLS_TAKE_OVER = env;
      }
    }
    expect(fs.readFileSync(path.join(filesFolderOf(dir), 'mine.md'), 'utf8')).toBe('mine');
    fs.rmSync(path.join(filesFolderOf(dir), 'mine.md'));
    // Taken over (dist renamed to other, say), the files folder becomes other's.
    synthesize(demoApp(other), { recordFile: path.join(parent, 'other.lock.json'), takeOver: true });
    expect(JSON.parse(fs.readFileSync(path.join(filesFolderOf(other), '.cluster-tls-output'), 'utf8')).outputFolder).toBe('other');
  });

  test('taking a folder over deletes a link in it, never what the link points to', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    const outside = path.join(parent, 'keep');
    fs.mkdirSync(path.join(outside, 'inner'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'inner', 'file.txt'), 'mine');
    fs.mkdirSync(path.join(dir, 'nested'), { recursive: true });
    fs.symlinkSync(outside, path.join(dir, 'nested', 'to-folder'));
    fs.symlinkSync(path.join(outside, 'inner', 'file.txt'), path.join(dir, 'to-file'));
    expect(() => synthesize(demoApp(dir))).toThrow(/holding nested\/to-folder, to-file; /);
    synthesize(demoApp(dir), { takeOver: true });
    expect(fs.existsSync(path.join(dir, 'nested'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'to-file'))).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'inner', 'file.txt'), 'utf8')).toBe('mine');
    expect(fs.readdirSync(parent).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist', 'keep']);
  });

  test('an output folder whose swap would take more with it is refused in one line: the root, one holding the record, one holding the working folder', () => {
    const parent = tmpdir();
    expect(() => synthesize(demoApp('/'))).toThrow(new ClusterTlsError('/: received the root of the file system as the output folder; '
      + 'expected a folder synth may replace whole: set the output folder (outdir, CDK8S_OUTDIR) to a folder of its own, such as dist'));
    const dir = path.join(parent, 'dist');
    expect(() => synthesize(demoApp(dir), { recordFile: path.join(dir, 'record.json') })).toThrow(new ClusterTlsError(`${dir}: received an output folder that holds the record ${dir}/record.json; `
      + 'expected the record outside it, since every synth replaces the output folder whole: set recordFile to a path beside the output folder'));
    fs.mkdirSync(path.join(dir, 'inner'), { recursive: true });
    const cwd = process.cwd();
    process.chdir(path.join(dir, 'inner'));
    try {
      expect(() => synthesize(demoApp(dir))).toThrow(`${dir}: received an output folder that holds the working folder (${path.join(dir, 'inner')}); expected a folder synth may replace whole`);
    } finally {
      process.chdir(cwd);
    }
    expect(fs.readdirSync(parent)).toEqual(['dist']);
    expect(fs.readdirSync(dir)).toEqual(['inner']);
  });

  test('a files folder whose swap would take more with it is refused in one line: the output folder itself, one holding the record, one holding the working folder', () => {
    const parent = tmpdir();
    const named = path.join(parent, 'cluster-tls');
    expect(() => synthesize(demoApp(named))).toThrow(new ClusterTlsError(`${named}: received an output folder whose files folder is ${named}; `
      + 'expected the files folder beside the output folder, under another name: set the output folder (outdir, CDK8S_OUTDIR) to a folder of its own not named cluster-tls, such as dist'));
    const dir = path.join(parent, 'dist');
    const files = filesFolderOf(dir);
    expect(() => synthesize(demoApp(dir), { recordFile: path.join(files, 'record.json') })).toThrow(new ClusterTlsError(`${files}: received a files folder that holds the record ${files}/record.json; `
      + 'expected the record outside it, since every synth replaces the files folder whole: set recordFile to a path beside the output folder'));
    fs.mkdirSync(path.join(files, 'inner'), { recursive: true });
    const cwd = process.cwd();
    process.chdir(path.join(files, 'inner'));
    try {
      expect(() => synthesize(demoApp(dir))).toThrow(new ClusterTlsError(`${files}: received a files folder that holds the working folder (${path.join(files, 'inner')}); `
        + 'expected a folder synth may replace whole: run the synth from the folder that holds the output folder'));
    } finally {
      process.chdir(cwd);
    }
    expect(fs.readdirSync(parent)).toEqual(['cluster-tls']);
  });

  test('two output folders side by side cannot share one record, which each synth replaces whole', () => {
    const parent = tmpdir();
    synthesize(demoApp(path.join(parent, 'prod')));
    const record = fs.readFileSync(path.join(parent, 'cluster-tls.lock.json'), 'utf8');
    expect(JSON.parse(record).output).toBe('prod');
    expect(() => synthesize(demoApp(path.join(parent, 'other')))).toThrow(new ClusterTlsError(`${path.join(parent, 'cluster-tls.lock.json')}: received the record of output folder prod; `
      + 'expected the record of other: one record goes with one output folder, each synth replacing it whole: give this output folder a record of its own (recordFile)'));
    expect(fs.readFileSync(path.join(parent, 'cluster-tls.lock.json'), 'utf8')).toBe(record);
    expect(fs.existsSync(path.join(parent, 'other'))).toBe(false);
  });

  test('a record inside the output folder is refused where the path really leads, through a link too', () => {
    const parent = tmpdir();
    synthesize(demoApp(path.join(parent, 'out', 'dist')));
    fs.symlinkSync(path.join(parent, 'out'), path.join(parent, 'link'));
    expect(() => synthesize(demoApp(path.join(parent, 'link', 'dist')), { recordFile: path.join(parent, 'out', 'dist', 'rec.json') }))
      .toThrow(/link\/dist: received an output folder that holds the record .*out\/dist\/rec\.json; /);
  });

  test('a path holding a URL\'s user name or password is never repeated', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'https:', 'deploy:MARKER@git.example.com', 'dist');
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(dir, 'a file');
    const cwd = process.cwd();
    process.chdir(parent);
    try {
      expect(() => synthesize(demoApp(dir))).toThrow(new ClusterTlsError('a path with a user name or password in it (not repeated here): received a file that is not a folder; '
        + 'expected the output folder: move the file away, or set the output folder (outdir, CDK8S_OUTDIR) to another path'));
    } finally {
      process.chdir(cwd);
    }
  });

  test('the cdk8s CLI\'s folder (CDK8S_OUTDIR) may not be the output folder, as it is for an App given no outdir', () => {
    const dir = path.join(tmpdir(), 'cdk8s.out');
    const saved = process.env.CDK8S_OUTDIR;
    try {
      process.env.CDK8S_OUTDIR = dir;
      const app = new App();
      new TlsDatabaseCluster(new Chart(app, 'demo', { namespace: 'demo' }), 'db', { clusterName: 'basic', version: 'v4.0.5' });
      expect(() => synthesize(app)).toThrow(new ClusterTlsError(`CDK8S_OUTDIR: received ${dir}, the folder the app writes its output to as well; expected the cdk8s CLI's folder apart from the app's, `
        + 'since the CLI deletes it before every run: give the app its own output folder (new App({ outdir: \'dist\' }), or synthesizeOrExit(build, { outdir: \'dist\' })) '
        + 'and keep output in cdk8s.yaml on another folder, such as cdk8s.out'));
      expect(fs.existsSync(dir)).toBe(false);
    } finally {
      if (saved === undefined) {
        delete process.env.CDK8S_OUTDIR;
      } else {
        process.env.CDK8S_OUTDIR = saved;
      }
    }
  });

  test('the cdk8s CLI\'s folder (CDK8S_OUTDIR) may neither hold the output folder nor sit inside it', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'out', 'dist');
    const saved = process.env.CDK8S_OUTDIR;
    try {
      for (const cli of [path.join(dir, 'cli'), path.join(parent, 'out')]) {
        process.env.CDK8S_OUTDIR = cli;
        expect(() => synthesize(demoApp(dir))).toThrow(/^CDK8S_OUTDIR: received .*, which (is inside|holds) the output folder .*; expected a folder of its own for the cdk8s CLI/);
      }
      expect(fs.existsSync(parent + '/out')).toBe(false);
    } finally {
      if (saved === undefined) {
        delete process.env.CDK8S_OUTDIR;
      } else {
        process.env.CDK8S_OUTDIR = saved;
      }
    }
  });

  test('writeOutput, the lower-level writer, keeps its files inside the folder and deletes no key', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'out');
    for (const bad of ['../escaped.txt', '/etc/x', 'a/../../b', '']) {
      expect(() => writeOutput(dir, [{ path: bad, content: 'x', executable: false }])).toThrow(`writeOutput: path: received ${JSON.stringify(bad)}; expected a relative path inside the output folder`);
    }
    expect(fs.readdirSync(parent)).toEqual([]);
    writeOutput(dir, [{ path: 'a.txt', content: 'x', executable: false }]);
    fs.writeFileSync(path.join(dir, 'ca-key.pem'), 'KEY');
    expect(() => writeOutput(dir, [{ path: 'a.txt', content: 'y', executable: false }])).toThrow(/received keys or certificates that synth did not write \(ca-key\.pem\)/);
    expect(fs.readFileSync(path.join(dir, 'ca-key.pem'), 'utf8')).toBe('KEY');
  });

  test('keys are told past the first bytes of a file and by PuTTY\'s name too, and taking over never deletes them', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    synthesize(demoApp(dir));
    fs.writeFileSync(path.join(dir, 'notes.txt'), `${'x'.repeat(200_000)}\n-----BEGIN PRIVATE KEY-----\nMC4=\n-----END PRIVATE KEY-----\n`);
    fs.writeFileSync(path.join(dir, 'admin.ppk'), 'secret');
    expect(() => synthesize(demoApp(dir), { takeOver: true })).toThrow(/received keys or certificates that synth did not write \(admin\.ppk, notes\.txt\)/);
  });

  test('a failure of the machine never repeats the system\'s message, which holds the raw path', () => {
    const fault = Object.assign(new Error('ENOENT: no such file, open \'/p/https:/admin:MARKER@git.example.com/rec.json\''), { code: 'ENOENT', syscall: 'open', path: '/p/https:/admin:MARKER@git.example.com/rec.json' });
    const line = machineError(fault, '/p/https:/admin:MARKER@git.example.com/rec.json', 'write the record').message;
    expect(line).not.toContain('MARKER');
    expect(line).toBe('a path with a user name or password in it (not repeated here): cannot write the record (ENOENT): the system refused it (open); check the path and synthesize again; the previous output is as it was');
  });

  test('one output folder reached by two spellings (a link) is one output for its record', () => {
    const parent = tmpdir();
    fs.mkdirSync(path.join(parent, 'real'));
    fs.symlinkSync(path.join(parent, 'real'), path.join(parent, 'link'));
    const recordFile = path.join(parent, 'state.json');
    synthesize(demoApp(path.join(parent, 'link', 'dist')), { recordFile });
    synthesize(demoApp(path.join(parent, 'real', 'dist')), { recordFile });
    expect(JSON.parse(fs.readFileSync(recordFile, 'utf8')).output).toBe('real/dist');
  });

  test('a folder whose name has a comma is told to take over in code, since the variable splits on commas', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'out,v2');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'mine.yaml'), 'x');
    expect(() => synthesize(demoApp(dir))).toThrow(/move them out, or pass takeOver: true to synthesize to replace the folder and delete them$/);
  });

  test('a path with a line break in it is quoted, so the message stays one line', () => {
    const parent = tmpdir();
    const file = path.join(parent, 'a\nb');
    fs.writeFileSync(file, 'x');
    expect(() => synthesize(demoApp(file))).toThrow(new ClusterTlsError(`${JSON.stringify(file)}: received a file that is not a folder; expected the output folder: move the file away, `
      + 'or set the output folder (outdir, CDK8S_OUTDIR) to another path'));
  });

  test('an output path that is a symbolic link or a file is refused in one line, and what it points to is untouched', () => {
    const parent = tmpdir();
    const target = path.join(parent, 'real');
    synthesize(demoApp(target));
    const before = listFiles(target).map((f) => [f, fs.readFileSync(path.join(target, f), 'utf8')]);
    const link = path.join(parent, 'dist');
    fs.symlinkSync(target, link);
    expect(() => synthesize(demoApp(link))).toThrow(new ClusterTlsError(`${link}: received a symbolic link (to ${target}); expected a folder: synth replaces the output folder whole and never writes `
      + 'through a link: set the output folder (outdir, CDK8S_OUTDIR) to the folder the link points to'));
    expect(listFiles(target).map((f) => [f, fs.readFileSync(path.join(target, f), 'utf8')])).toEqual(before);
    const file = path.join(parent, 'file');
    fs.writeFileSync(file, 'data');
    expect(() => synthesize(demoApp(file))).toThrow(new ClusterTlsError(`${file}: received a file that is not a folder; expected the output folder: move the file away, `
      + 'or set the output folder (outdir, CDK8S_OUTDIR) to another path'));
    expect(fs.readFileSync(file, 'utf8')).toBe('data');
    expect(fs.readdirSync(parent).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist', 'file', 'real']);
  });

  test('a files folder that is a symbolic link or a file is refused in one line that says to move it away', () => {
    const parent = tmpdir();
    const elsewhere = fs.mkdtempSync(path.join(tmpdir(), 'elsewhere-'));
    const files = path.join(parent, 'cluster-tls');
    fs.symlinkSync(elsewhere, files);
    expect(() => synthesize(demoApp(path.join(parent, 'dist')))).toThrow(new ClusterTlsError(`${files}: received a symbolic link (to ${elsewhere}); expected a folder: `
      + 'synth replaces the files folder whole and never writes through a link: move it away: synth writes its files folder cluster-tls beside the output folder, as a folder of its own'));
    fs.rmSync(files);
    fs.writeFileSync(files, 'mine');
    expect(() => synthesize(demoApp(path.join(parent, 'dist')))).toThrow(new ClusterTlsError(`${files}: received a file that is not a folder; expected the files folder: `
      + 'move it away: synth writes its files folder cluster-tls beside the output folder, as a folder of its own'));
    expect(fs.readFileSync(files, 'utf8')).toBe('mine');
    expect(fs.readdirSync(parent).sort()).toEqual(['cluster-tls']);
  });

  test('a failed synth leaves the previous output exactly as it was', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    synthesize(demoApp(dir));
    const contents = (folder: string) => listFiles(folder).map((f) => [f, fs.readFileSync(path.join(folder, f), 'utf8')]);
    const before = contents(dir);
    const beforeFiles = contents(filesFolderOf(dir));
    const app = demoApp(dir);
    new OutputFile(Chart.of(app.node.findChild('demo')), 'broken', { path: 'demo/broken.txt', content: { render: () => { throw new ClusterTlsError('boom'); } } });
    expect(() => synthesize(app)).toThrow('boom');
    expect(contents(dir)).toEqual(before);
    expect(contents(filesFolderOf(dir))).toEqual(beforeFiles);
    expect(fs.readdirSync(parent).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist']);
  });

  test('a fault in a content\'s render names the construct and the file, keeps the original as cause, and leaves the output as it was', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    synthesize(demoApp(dir));
    const before = listFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
    const app = demoApp(dir);
    const fault = new TypeError('x is undefined');
    new OutputFile(Chart.of(app.node.findChild('demo')), 'faulty', { path: 'demo/faulty.txt', content: { render: () => { throw fault; } } });
    let thrown: unknown;
    try {
      synthesize(app);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(ClusterTlsError);
    expect((thrown as Error).message).toBe('demo/faulty: the content of demo/faulty.txt failed to render: x is undefined');
    expect((thrown as Error).cause).toBe(fault);
    expect(listFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])).toEqual(before);
  });

  test('a write that fails half-way leaves the previous output exactly as it was', () => {
    const parent = tmpdir();
    const dir = path.join(parent, 'dist');
    synthesize(demoApp(dir));
    const before = listFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
    // 'a' as a file and 'a/b' below it cannot both be written: the second write fails.
    const files = [{ path: 'a', content: '1', executable: false }, { path: 'a/b', content: '2', executable: false }];
    expect(() => writeOutput(dir, files)).toThrow();
    expect(listFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])).toEqual(before);
    expect(fs.readdirSync(parent).sort()).toEqual(['cluster-tls', 'cluster-tls.lock.json', 'dist']);
  });

  test('two objects of the same kind and name in a namespace are refused', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo', { namespace: 'demo' });
    new ClusterCertificates(chart, 'a', { clusterName: 'basic', components: ['store'] });
    new ClusterCertificates(chart, 'b', { clusterName: 'basic', components: ['coordinator'] });
    expect(() => renderApp(app)).toThrow('demo/b/SelfSignedIssuer: Issuer "basic-selfsigned-ca-issuer" in namespace "demo": received it twice (demo/a/SelfSignedIssuer declares it too); expected each object once: share one construct instead of declaring it twice');
  });

  test('two constructs writing the same file are refused', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo');
    new OutputFile(chart, 'a', { path: 'x.md', content: '' });
    new OutputFile(chart, 'b', { path: 'x.md', content: '' });
    expect(() => renderApp(app)).toThrow('demo/b: path: received "x.md"; expected a file nothing else writes (demo/a writes it too)');
    // The files folder's marker is the synth's; a manifest's name is free, since the manifests have a folder of their own.
    const marker = Testing.app();
    new OutputFile(new Chart(marker, 'demo'), 'm', { path: '.cluster-tls-output', content: '' });
    expect(() => renderApp(marker)).toThrow('demo/m: path: received ".cluster-tls-output"; expected a file nothing else writes (the marker of the files folder writes it too)');
    const manifestName = Testing.app();
    new OutputFile(new Chart(manifestName, 'demo'), 'n', { path: 'demo.k8s.yaml', content: 'notes\n' });
    expect(renderApp(manifestName).files.filter((f) => f.path === 'demo.k8s.yaml')).toHaveLength(2);
  });

  test('output files must stay inside the output folder', () => {
    const chart = Testing.chart();
    expect(() => new OutputFile(chart, 'a', { path: '../x.md', content: '' })).toThrow('test/a: path: received "../x.md"; expected a relative path inside the files folder');
  });

  test('construct validations are reported one line each, as a user error', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'demo');
    new ApiObject(chart, 'obj', { apiVersion: 'v1', kind: 'ConfigMap' }).node.addValidation({ validate: () => ['not good'] });
    expect(() => renderApp(app)).toThrow(ClusterTlsError);
    expect(() => renderApp(app)).toThrow('demo/obj: not good');
  });

  test('synthesizeOrExit prints a user error without a stack trace and sets the exit code', () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const before = process.exitCode;
    synthesizeOrExit(() => { throw new ClusterTlsError('demo/x: field: received 1; expected 2'); });
    expect(write).toHaveBeenCalledWith('error: demo/x: field: received 1; expected 2\n');
    expect(process.exitCode).toBe(1);
    process.exitCode = before;
    write.mockRestore();
  });

  test('synthesizeOrExit lets programming errors through', () => {
    expect(() => synthesizeOrExit(() => { throw new TypeError('bug'); })).toThrow(TypeError);
  });
});

describe('synthesizeAll', () => {
  /** What each refusal of targets whose folders overlap asks for. */
  const APART = 'give each target a folder of its own, such as east/dist and west/dist, each with its files folder and record beside it';

  test('writes each target into its own output folder, with its own record, and returns what each wrote', () => {
    const dir = tmpdir();
    const results = synthesizeAll([{ app: demoApp(path.join(dir, 'a', 'dist')) }, { app: demoApp(path.join(dir, 'b', 'dist')) }]);
    expect(results.map((r) => path.relative(dir, r.outdir))).toEqual([path.join('a', 'dist'), path.join('b', 'dist')]);
    expect(['a', 'b'].map((t) => listFiles(path.join(dir, t)))).toEqual(['a', 'b'].map(() => [
      '.cluster-tls-output', 'demo/basic/tls-plan.json', 'demo/notes.md', 'demo/run.sh', 'cluster-tls.lock.json', 'dist/.cluster-tls-output', 'dist/demo.k8s.yaml',
    ].map((f) => (f.startsWith('demo') || f === '.cluster-tls-output' ? path.join('cluster-tls', f) : f)).sort()));
  });

  test('a refusal of one target writes no target, and names the target and its output folder on each line', () => {
    const dir = tmpdir();
    const a = path.join(dir, 'a', 'dist');
    fs.mkdirSync(path.join(dir, 'b', 'dist'), { recursive: true });
    // A file no synth wrote in b's output folder: its synth refuses to replace the folder.
    fs.writeFileSync(path.join(dir, 'b', 'dist', 'mine.yaml'), 'kind: ConfigMap\n');
    const message = refusal(() => synthesizeAll([{ app: demoApp(a) }, { app: demoApp(path.join(dir, 'b', 'dist')) }]));
    expect(message.split('\n').every((line) => line.startsWith(`synthesizeAll.targets[1] (${path.join(dir, 'b', 'dist')}): `))).toBe(true);
    expect(message).toContain('mine.yaml');
    expect(fs.existsSync(a)).toBe(false);
  });

  test.each([
    ['one output folder', (dir: string) => [{ app: demoApp(path.join(dir, 'dist')) }, { app: demoApp(path.join(dir, 'dist')) }],
      (dir: string) => `ClusterTls: synthesizeAll.targets[1].options.outdir: received "${path.join(dir, 'dist')}"; expected an output folder no other target has (targets[0] writes it)`],
    ['one record', (dir: string) => [{ app: demoApp(path.join(dir, 'a')), options: { recordFile: path.join(dir, 'record.json') } }, { app: demoApp(path.join(dir, 'b')), options: { recordFile: path.join(dir, 'record.json') } }],
      (dir: string) => `ClusterTls: synthesizeAll.targets[1].options.recordFile: received "${path.join(dir, 'record.json')}"; expected a record no other target has (targets[0] writes it)`],
    ['no target', () => [], () => 'ClusterTls: synthesizeAll.targets: received an empty list; expected at least one app, each with its options'],
    ['two output folders in one folder, each with a record of its own: one files folder beside both',
      (dir: string) => ['a', 'b'].map((t) => ({ app: demoApp(path.join(dir, t)), options: { recordFile: path.join(dir, `${t}.json`) } })),
      (dir: string) => `ClusterTls: synthesizeAll.targets[1].options.outdir: received "${path.join(dir, 'b')}", whose files folder ${path.join(dir, 'cluster-tls')} is the files folder of targets[0] (${path.join(dir, 'a')}) too; `
        + `expected a path apart from every other target's output folder, files folder and record, since each synth replaces its folders whole: ${APART}`],
    ['an output folder inside another target\'s', (dir: string) => [{ app: demoApp(path.join(dir, 'a', 'dist')) }, { app: demoApp(path.join(dir, 'a', 'dist', 'b', 'dist')) }],
      (dir: string) => `ClusterTls: synthesizeAll.targets[1].options.outdir: received "${path.join(dir, 'a', 'dist', 'b', 'dist')}", inside the output folder of targets[0] (${path.join(dir, 'a', 'dist')}); `
        + `expected a path apart from every other target's output folder, files folder and record, since each synth replaces its folders whole: ${APART}`],
  ])('refuses %s before writing anything', (_what, targets, message) => {
    const dir = tmpdir();
    expect(refusal(() => synthesizeAll(targets(dir)))).toBe(message(dir));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test.each([
    ['inside another target\'s files folder', 'a', (dir: string) => [{ app: demoApp(path.join(dir, 'a', 'dist')) }, { app: demoApp(path.join(dir, 'b', 'dist')), options: { recordFile: path.join(dir, 'a', 'cluster-tls', 'b.json') } }],
      (dir: string) => `ClusterTls: synthesizeAll.targets[1].options.recordFile: received "${path.join(dir, 'a', 'cluster-tls', 'b.json')}", inside the files folder of targets[0] (${path.join(dir, 'a', 'cluster-tls')}); `],
    ['inside a later target\'s output folder', 'b', (dir: string) => [{ app: demoApp(path.join(dir, 'a', 'dist')), options: { recordFile: path.join(dir, 'b', 'dist', 'a.json') } }, { app: demoApp(path.join(dir, 'b', 'dist')) }],
      (dir: string) => `ClusterTls: synthesizeAll.targets[0].options.recordFile: received "${path.join(dir, 'b', 'dist', 'a.json')}", inside the output folder of targets[1] (${path.join(dir, 'b', 'dist')}); `],
  ])('refuses a record %s, which that target\'s synth would take with its folder, before writing anything', (_what, first, targets, message) => {
    const dir = tmpdir();
    // The other target synthesized before, alone: the folder the record would go into exists.
    synthesize(demoApp(path.join(dir, first, 'dist')));
    const before = listFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
    expect(refusal(() => synthesizeAll(targets(dir)))).toBe(`${message(dir)}expected a path apart from every other target's output folder, files folder and record, `
      + `since each synth replaces its folders whole: ${APART}`);
    expect(listFiles(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])).toEqual(before);
  });

  test('synthesizeAllOrExit prints one line per output, and a refusal as its line with exit code 1', () => {
    const dir = tmpdir();
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const before = process.exitCode;
    try {
      synthesizeAllOrExit(() => [{ app: demoApp(path.join(dir, 'a', 'dist')) }, { app: demoApp(path.join(dir, 'b', 'dist')) }]);
      expect(out.mock.calls.map((c) => String(c[0]).replace(/ into [^]*/, ''))).toEqual(['synthesized 1 manifest (5 objects)', 'synthesized 1 manifest (5 objects)']);
      synthesizeAllOrExit((async () => []) as unknown as () => []);
      expect(err).toHaveBeenCalledWith('error: synthesizeAllOrExit: build: received a function that returned a Promise (an async function); expected a function that returns '
        + 'the list of apps, each with its options itself: synthesizeAllOrExit does not wait; build without await, or call ClusterTls.synthesizeAll(targets) after your awaits\n');
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = before;
      out.mockRestore();
      err.mockRestore();
    }
  });
});
