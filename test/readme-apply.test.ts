/**
 * README.md's *Apply it in order*, run as written on an empty API server: the real kube-apiserver
 * with the real cert-manager and the CRDs the prerequisites install (_control-plane.ts), and no
 * namespace but cert-manager's. README's app (`main.ts` of *Use it in your app*) is synthesized in a
 * new project folder, where `npx cluster-tls` and the package resolve to the project's compiled
 * sources (test/consumer.test.ts proves the packed package); its blocks run in order, with bash,
 * from the folder README names (the one that holds `dist/`), the Secret you create made from
 * certificate files of a CA of its own. The cluster's runbook, from its first step to the deploy,
 * runs as written too, on a second empty API server, and the reference output's migration runbook's
 * first two steps on a third: each makes the namespace it needs.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { CONTROL_PLANE_TOOLS, ControlPlane, describeWithTools, tool } from './_control-plane';
import { userTlsSecret } from './_pki';
import { readmeBlocks } from './_readme';
import { ProjectFolder, bash, projectFolder, runbookEnv, shellBlocks } from './_runbooks';

const ROOT = path.join(__dirname, '..');
const SECTION = 'Apply it in order';

/** README's app, synthesized in a project folder of its own. */
function readmeApp(): ProjectFolder {
  const project = projectFolder('readme-apply-');
  const modules = path.join(project.dir, 'node_modules');
  for (const name of ['cdk8s', 'constructs', 'cdk8s-plus-27']) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
  }
  const library = path.join(modules, 'cdk8s-cluster-tls');
  fs.mkdirSync(library);
  fs.writeFileSync(path.join(library, 'package.json'), '{ "name": "cdk8s-cluster-tls", "main": "index.js" }\n');
  fs.writeFileSync(path.join(library, 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'build', 'lib', 'index.js'))});\n`);
  const main = readmeBlocks().find((b) => b.section === 'Use it in your app' && b.file === 'main.ts')!;
  fs.writeFileSync(path.join(project.dir, 'main.js'), ts.transpileModule(main.text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText);
  const synth = spawnSync(process.execPath, ['main.js'], { cwd: project.dir, encoding: 'utf8' });
  expect({ status: synth.status, stderr: synth.stderr }).toEqual({ status: 0, stderr: '' });
  return project;
}

/** The environment of the commands: the release's kubectl first on the PATH, the control plane's kubeconfig. */
function envFor(plane: ControlPlane, project: ProjectFolder): NodeJS.ProcessEnv {
  const bin = path.join(plane.work, 'tools');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(tool('kubectl'), path.join(bin, 'kubectl'));
  return runbookEnv(project.home, { PATH: `${bin}${path.delimiter}${process.env.PATH}`, KUBECONFIG: plane.kubeconfig, npm_config_offline: 'true' });
}

/** An API server with cert-manager running and no namespace of the app's. */
async function emptyCluster(): Promise<ControlPlane> {
  const plane = await ControlPlane.start();
  await plane.startCertManager();
  expect(plane.kubectl(['get', 'namespace', 'shop']).stderr).toContain('namespaces "shop" not found');
  return plane;
}

jest.setTimeout(600_000);

test('README.md shows its apply steps as blocks this test runs: the namespace, the Secret you create, the runbook\'s core', () => {
  const blocks = readmeBlocks().filter((b) => b.section === SECTION && b.lang === 'sh');
  expect(blocks.map((b) => b.text.split('\n')[0])).toEqual([
    'kubectl create namespace shop --dry-run=client -o json | kubectl apply --server-side -f -',
    expect.stringMatching(/^kubectl create secret generic orders-legacy-tls -n shop /),
    'cd dist',
  ]);
});

describeWithTools('README.md\'s apply steps on an empty API server with the real cert-manager', CONTROL_PLANE_TOOLS, () => {
  let project: ProjectFolder;

  beforeAll(async () => {
    project = readmeApp();
    // The source's certificate files, which the block that creates its Secret reads.
    const source = await userTlsSecret();
    fs.writeFileSync(path.join(project.dir, 'legacy.crt'), source['tls.crt']);
    fs.writeFileSync(path.join(project.dir, 'legacy.key'), source['tls.key']);
    fs.writeFileSync(path.join(project.dir, 'legacy-ca.crt'), source['ca.crt']);
  });

  afterAll(() => {
    if (project) {
      fs.rmSync(project.dir, { recursive: true, force: true });
    }
  });

  test('every block runs as written, in order, from the folder that holds dist/: certificates Ready, verify passes, every manifest applied', async () => {
    const plane = await emptyCluster();
    try {
      const env = envFor(plane, project);
      const blocks = readmeBlocks().filter((b) => b.section === SECTION && b.lang === 'sh');
      const outputs: string[] = [];
      for (const block of blocks) {
        outputs.push(await bash(block.text, project.dir, env));
      }
      expect(outputs[0]).toBe('namespace/shop serverside-applied\n');
      expect(outputs[2]).toMatch(/^\d+ secrets checked: (\d+) passed, 0 failed$/m);
      expect(outputs[2]).not.toMatch(/not found|error/i);
      const clusters = JSON.parse(plane.kubectl(['get', 'databaseclusters,migrationclusters', '-n', 'shop', '-o', 'json']).stdout).items.map((o: any) => `${o.kind}/${o.metadata.name}`);
      expect(clusters.sort()).toEqual(['DatabaseCluster/orders', 'MigrationCluster/orders']);
      expect(plane.kubectl(['get', 'deployments', '-n', 'shop', '-o', 'name']).stdout).toMatch(/^deployment\.apps\/web-storefront-/m);
    } finally {
      await plane.stop();
    }
  });

  test('the cluster\'s runbook, from its first step to the deploy, runs as written: its first step makes the namespace', async () => {
    const plane = await emptyCluster();
    try {
      const env = envFor(plane, project);
      const runbook = fs.readFileSync(path.join(project.dir, 'cluster-tls', 'shop', 'orders', 'database-runbook.md'), 'utf8');
      const titles = [...runbook.matchAll(/^## \d+\. (.*)$/gm)].map((m) => m[1]);
      expect(titles[0]).toBe('The cluster\'s namespace');
      const blocks = shellBlocks(runbook).slice(0, titles.indexOf('Deploy the cluster') + 1);
      expect(blocks.at(-1)).toContain('kubectl apply -f data.k8s.yaml');
      for (const block of blocks) {
        expect(block.split('\n')[0]).toBe('# run in the output folder (the one that holds data.k8s.yaml)');
        await bash(block, project.outdir, env);
      }
      expect(plane.kubectl(['get', 'databasecluster', 'orders', '-n', 'shop', '-o', 'name']).stdout).toBe('databasecluster.db.operator.io/orders\n');
    } finally {
      await plane.stop();
    }
  });

  test('the migration cluster\'s runbook (the reference output\'s) runs as written on an empty cluster: its first step makes the namespace its Secret step writes into', async () => {
    const plane = await emptyCluster();
    try {
      const env = envFor(plane, project);
      const runbook = fs.readFileSync(path.join(ROOT, 'cluster-tls', 'demo', 'basic', 'migration-runbook.md'), 'utf8');
      const titles = [...runbook.matchAll(/^## \d+\. (.*)$/gm)].map((m) => m[1]);
      expect(titles.slice(0, 2)).toEqual(['The migration cluster\'s namespace', 'Create the Secret of each external database']);
      expect(plane.kubectl(['get', 'namespace', 'demo']).stderr).toContain('namespaces "demo" not found');
      // The files the Secret step names, in a folder of the user's own (kubectl reads them as they are).
      const certs = fs.mkdtempSync(path.join(project.home, 'certs-'));
      for (const file of ['basic-source1-tls-client.pem', 'basic-source1-tls-client-key.pem', 'basic-source1-tls-ca.pem']) {
        fs.writeFileSync(path.join(certs, file), `${file}\n`);
      }
      for (const block of shellBlocks(runbook).slice(0, 2)) {
        expect(block.split('\n')[0]).toBe('# run in the output folder (the one that holds demo.k8s.yaml)');
        await bash(block, path.join(ROOT, 'dist'), { ...env, CERTS: certs });
      }
      expect(plane.kubectl(['get', 'secret', 'basic-source1-tls', '-n', 'demo', '-o', 'name']).stdout).toBe('secret/basic-source1-tls\n');
    } finally {
      await plane.stop();
    }
  });
});
