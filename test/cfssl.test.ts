import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdk8s';
import { ClusterKind } from '../lib/model/catalog';
import { ClusterCertificates } from '../lib/certificates/cluster-certificates';
import { ClusterCertificatesProps } from '../lib/certificates/cluster-certificates-props';
import { IssuingMethod, KeyAlgorithm, TlsPlan } from '../lib/plan/certificate-options';
import { hostNames } from '../lib/model/names';
import { OutputFile } from '../lib/app/output-file';
import { expectValidAgainstCrds } from './_crds';

const DB = ['coordinator', 'store', 'sqlserver', 'pump', 'changefeed', 'columnar', 'importer', 'lightning'] as const;
const ALL = [...DB, 'mig-master', 'mig-worker'] as const;
const FOLDER = 'demo/basic/cfssl';

function synth(props: Partial<ClusterCertificatesProps> = {}, setup?: (c: ClusterCertificates) => void) {
  const chart = Testing.chart();
  const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', method: IssuingMethod.CFSSL, ...props });
  setup?.(certs);
  const objects = Testing.synth(chart);
  const files = new Map(certs.node.findAll().filter(OutputFile.isOutputFile).map((f) => [f.path, f]));
  const text = (file: string) => {
    const found = files.get(file);
    if (!found) {
      throw new Error(`no file ${file}; have: ${[...files.keys()].join(', ')}`);
    }
    return found.render();
  };
  return { certs, objects, files, text, json: (file: string) => JSON.parse(text(file)) };
}

describe('cfssl method: request files', () => {
  const { objects, files, json, text } = synth({
    components: [...ALL],
    subject: { organization: 'acme', organizationalUnit: 'db', country: 'DE', state: 'Berlin', locality: 'Berlin' },
  });

  test('no cert-manager object is synthesized', () => {
    expect(objects).toEqual([]);
    expectValidAgainstCrds(objects);
  });

  test('one folder per cluster under <namespace>/<cluster>/cfssl, beside the plan', () => {
    const cfssl = ['.gitignore', 'ca-config.json', 'ca-csr.json', 'client.json', 'issue-certificates.sh', ...ALL.map((t) => `${t}-server.json`)];
    expect([...files.keys()].sort()).toEqual([...cfssl.map((f) => `${FOLDER}/${f}`), 'demo/basic/tls-plan.json'].sort());
    expect(files.get(`${FOLDER}/issue-certificates.sh`)!.executable).toBe(true);
    expect(files.get(`${FOLDER}/ca-config.json`)!.executable).toBe(false);
  });

  test('ca-config.json: 8760h by default and the internal and client profiles of the spec', () => {
    expect(json(`${FOLDER}/ca-config.json`)).toEqual({
      signing: {
        default: { expiry: '8760h' },
        profiles: {
          internal: { expiry: '8760h', usages: ['signing', 'key encipherment', 'server auth', 'client auth'] },
          client: { expiry: '8760h', usages: ['signing', 'key encipherment', 'client auth'] },
        },
      },
    });
  });

  test('ca-csr.json: common name, CA expiry 87600h, RSA 2048, the subject as C, L, O, ST, OU', () => {
    expect(json(`${FOLDER}/ca-csr.json`)).toEqual({
      CN: 'basic',
      CA: { expiry: '87600h' },
      key: { algo: 'rsa', size: 2048 },
      names: [{ C: 'DE', L: 'Berlin', O: 'acme', ST: 'Berlin', OU: 'db' }],
    });
  });

  test.each([...ALL])('%s-server.json: CN, then hosts 127.0.0.1, ::1 and the host names of the table; no names, which belong to the CA', (token) => {
    const csr = json(`${FOLDER}/${token}-server.json`);
    expect(Object.keys(csr)).toEqual(['CN', 'hosts', 'key']);
    expect(csr.CN).toBe('basic');
    expect(csr.hosts).toEqual(['127.0.0.1', '::1', ...hostNames(token, { clusterName: 'basic', namespace: 'demo' })]);
    expect(csr.key).toEqual({ algo: 'rsa', size: 2048 });
  });

  test('the hosts of a server request are the table\'s, spelled out', () => {
    expect(json(`${FOLDER}/store-server.json`).hosts).toEqual([
      '127.0.0.1', '::1',
      'basic-store', 'basic-store.demo', 'basic-store.demo.svc',
      'basic-store-peer', 'basic-store-peer.demo', 'basic-store-peer.demo.svc',
      '*.basic-store-peer', '*.basic-store-peer.demo', '*.basic-store-peer.demo.svc',
    ]);
    expect(json(`${FOLDER}/pump-server.json`).hosts).toEqual(['127.0.0.1', '::1', '*.basic-pump', '*.basic-pump.demo', '*.basic-pump.demo.svc']);
  });

  test('client.json: the same CN, empty hosts, no names, one file for both cluster kinds', () => {
    expect(json(`${FOLDER}/client.json`)).toEqual({
      CN: 'basic',
      hosts: [],
      key: { algo: 'rsa', size: 2048 },
    });
  });

  test('JSON with two-space indent and a final newline, the same bytes every time', () => {
    const content = text(`${FOLDER}/ca-csr.json`);
    expect(content).toBe(`${JSON.stringify(JSON.parse(content), undefined, 2)}\n`);
    const again = synth({
      components: [...ALL],
      subject: { organization: 'acme', organizationalUnit: 'db', country: 'DE', state: 'Berlin', locality: 'Berlin' },
    });
    for (const [file, f] of files) {
      expect(again.text(file)).toBe(f.render());
    }
  });

  test('the plan records the method', () => {
    expect(json('demo/basic/tls-plan.json').method).toBe('cfssl');
  });

  test('keys and certificates the script makes are kept out of version control', () => {
    expect(text(`${FOLDER}/.gitignore`).split('\n')).toEqual(expect.arrayContaining(['*.pem', '*.csr']));
  });

  test('no private key in any file', () => {
    for (const f of files.values()) {
      expect(f.render()).not.toMatch(/PRIVATE KEY/);
    }
  });
});

describe('cfssl method: settings flow into the files', () => {
  test('only the subject fields that are set; organization defaults to the cluster name', () => {
    const { json } = synth({ components: ['store'] });
    expect(json(`${FOLDER}/ca-csr.json`).names).toEqual([{ O: 'basic' }]);
    expect(json(`${FOLDER}/store-server.json`).names).toBeUndefined();
  });

  test('durations and Common Name come from the construct\'s settings', () => {
    const { json } = synth({ components: ['store'], duration: '4380h', caDuration: '43800h', commonName: 'tls-basic' });
    const config = json(`${FOLDER}/ca-config.json`);
    expect(config.signing.default.expiry).toBe('4380h');
    expect(config.signing.profiles.internal.expiry).toBe('4380h');
    expect(config.signing.profiles.client.expiry).toBe('4380h');
    expect(json(`${FOLDER}/ca-csr.json`)).toMatchObject({ CN: 'tls-basic', CA: { expiry: '43800h' } });
    expect(json(`${FOLDER}/store-server.json`).CN).toBe('tls-basic');
    expect(json(`${FOLDER}/client.json`).CN).toBe('tls-basic');
  });

  test('ECDSA and larger RSA keys map to cfssl\'s key object for the certificates; the CA key stays RSA 2048, the spec\'s limit', () => {
    const ecdsa = synth({ components: ['store'], privateKey: { algorithm: KeyAlgorithm.ECDSA, size: 384 } });
    expect(ecdsa.json(`${FOLDER}/store-server.json`).key).toEqual({ algo: 'ecdsa', size: 384 });
    expect(ecdsa.json(`${FOLDER}/client.json`).key).toEqual({ algo: 'ecdsa', size: 384 });
    expect(ecdsa.json(`${FOLDER}/ca-csr.json`).key).toEqual({ algo: 'rsa', size: 2048 });
    expect(ecdsa.json('demo/basic/tls-plan.json').ca.privateKey).toEqual({ algorithm: 'RSA', size: 2048 });
    expect(synth({ components: ['store'], privateKey: { size: 4096 } }).json(`${FOLDER}/store-server.json`).key)
      .toEqual({ algo: 'rsa', size: 4096 });
  });

  test('extra names, cluster domain and a drainer added later reach the requests and the script', () => {
    const { json, text } = synth({
      components: ['sqlserver'],
      clusterDomain: 'cluster.local',
      extraNames: { sqlserver: { extraDnsNames: ['db.example.com'], extraIpAddresses: ['10.0.0.5'] } },
    }, (c) => c.addComponent('drainer', { releaseName: 'binlog' }));
    const hosts = json(`${FOLDER}/sqlserver-server.json`).hosts;
    expect(hosts.slice(0, 3)).toEqual(['127.0.0.1', '::1', '10.0.0.5']);
    expect(hosts).toContain('basic-sqlserver.demo.svc.cluster.local');
    expect(hosts[hosts.length - 1]).toBe('db.example.com');
    expect(json(`${FOLDER}/drainer-server.json`).hosts)
      .toEqual(['127.0.0.1', '::1', '*.basic-binlog-drainer', '*.basic-binlog-drainer.demo', '*.basic-binlog-drainer.demo.svc',
        '*.basic-binlog-drainer.demo.svc.cluster.local']);
    expect(text(`${FOLDER}/issue-certificates.sh`)).toContain('secret \'basic-drainer-cluster-secret\' \'drainer-server\'');
  });

  test('Ed25519 keys are refused with cfssl', () => {
    expect(() => synth({ privateKey: { algorithm: KeyAlgorithm.ED25519 } }))
      .toThrow('test/certs: privateKey.algorithm: received "Ed25519"; expected RSA or ECDSA with the cfssl method (cfssl makes no Ed25519 keys)');
  });
});

describe('cfssl method: the issuing script', () => {
  const { text } = synth({ components: ['store', 'mig-master'] });
  const script = text(`${FOLDER}/issue-certificates.sh`);
  const lines = script.split('\n');

  test('strict bash, private files, its own folder, a KUBECTL override', () => {
    expect(lines[0]).toBe('#!/usr/bin/env bash');
    expect(lines).toEqual(expect.arrayContaining([
      'set -euo pipefail',
      'umask 077',
      'cd "$(dirname "$0")"',
      'KUBECTL="${KUBECTL:-kubectl}"',
    ]));
    expect(lines.indexOf('umask 077')).toBeLessThan(lines.findIndex((l) => l.startsWith('issue ')));
  });

  test('is valid bash', () => {
    const check = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  test('steps 3 to 7 in order: CA, server certificates with internal, client with client, then the Secrets', () => {
    const steps = lines.filter((l) => /^(issue|secret) /.test(l));
    expect(steps).toEqual([
      'issue \'ca\' \'ca-csr.json\'',
      'issue \'store-server\' \'store-server.json\' \'internal\'',
      'issue \'mig-master-server\' \'mig-master-server.json\' \'internal\'',
      'issue \'client\' \'client.json\' \'client\'',
      'secret \'basic-store-cluster-secret\' \'store-server\'',
      'secret \'basic-mig-master-cluster-secret\' \'mig-master-server\'',
      'secret \'basic-cluster-client-secret\' \'client\'',
      'secret \'basic-mig-client-secret\' \'client\'',
    ]);
  });

  test('the cfssl and kubectl commands of section A', () => {
    expect(script).toContain('cfssl gencert -initca "$request" | cfssljson -bare "$work/$bare" -');
    expect(script).toContain('cfssl gencert -ca="$dir/ca.pem" -ca-key="$dir/ca-key.pem" -config=\'ca-config.json\' -profile="$profile" "$request"');
    expect(script).toContain('"${kubectl[@]}" get secret "$1" --namespace="$NAMESPACE"');
    expect(script).toContain([
      '  "${kubectl[@]}" create secret generic "$name" --namespace="$namespace" \\',
      '    --from-file=tls.crt="$at.pem" \\',
      '    --from-file=tls.key="$at-key.pem" \\',
      '    --from-file=ca.crt="$ca"',
    ].join('\n'));
    expect(lines).toContain('NAMESPACE=\'demo\'');
  });

  test('says that it keeps what exists and that replacing is the renewal procedure', () => {
    expect(script).toMatch(/kept \$at\.pem and \$at-key\.pem: they exist \(only a declared rotation makes new ones\)/);
    expect(script).toMatch(/kept Secret \$namespace\/\$name: it exists \(replacing it is the separate renewal procedure\)/);
  });

  describe('stops with a clear message when a tool is missing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-tls-cfssl-tools-'));
    const scriptPath = path.join(dir, 'issue-certificates.sh');
    fs.writeFileSync(scriptPath, script, { mode: 0o755 });
    // A search path with only what the script needs before its checks, plus the given stand-ins.
    const run = (tools: string[], env: Record<string, string> = {}) => {
      const bin = fs.mkdtempSync(path.join(dir, 'bin-'));
      const dirname = spawnSync('sh', ['-c', 'command -v dirname'], { encoding: 'utf8' }).stdout.trim();
      fs.symlinkSync(dirname, path.join(bin, 'dirname'));
      for (const tool of tools) {
        fs.writeFileSync(path.join(bin, tool), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      }
      return spawnSync('/bin/bash', [scriptPath], { encoding: 'utf8', env: { PATH: bin, ...env } });
    };

    test.each([
      [[], 'cfssl was not found on PATH; install cfssl and cfssljson (Debian and Ubuntu: apt-get install golang-cfssl)'],
      [['cfssl'], 'cfssljson was not found on PATH; install cfssl and cfssljson'],
      [['cfssl', 'cfssljson'], 'kubectl was not found on PATH; install kubectl, or set KUBECTL to the command to use'],
    ])('with only %j', (tools, message) => {
      const result = run(tools);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`issue-certificates.sh: ${message}`);
      expect(fs.readdirSync(dir).filter((f) => f !== 'issue-certificates.sh' && !f.startsWith('bin-'))).toEqual([]);
    });

    test('KUBECTL names the kubectl command to check and run', () => {
      const result = run(['cfssl', 'cfssljson', 'kubectl'], { KUBECTL: '/nowhere/kubectl --context=prod' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('issue-certificates.sh: /nowhere/kubectl was not found on PATH');
    });
  });
});

describe('user-provided method', () => {
  const props: Partial<ClusterCertificatesProps> = { method: IssuingMethod.USER_PROVIDED, components: ['store', 'pump', 'mig-master'] };

  test('no certificate object, no script, only the plan and the list of required Secrets', () => {
    const { objects, files } = synth(props);
    expect(objects).toEqual([]);
    expect([...files.keys()].sort()).toEqual(['demo/basic/required-secrets.md', 'demo/basic/tls-plan.json']);
  });

  test('the cluster constructs get the same Secret names as with the other methods', () => {
    const { certs } = synth(props);
    expect(certs.method).toBe(IssuingMethod.USER_PROVIDED);
    expect(certs.serverSecretName('store')).toBe('basic-store-cluster-secret');
    expect(certs.clientSecretName(ClusterKind.DATABASE)).toBe('basic-cluster-client-secret');
    expect(certs.clientSecretName(ClusterKind.MIGRATION)).toBe('basic-mig-client-secret');
  });

  test('required-secrets.md lists each Secret, its three keys, and the names each server certificate must cover', () => {
    const { text, json } = synth(props);
    const doc = text('demo/basic/required-secrets.md');
    const plan: TlsPlan = json('demo/basic/tls-plan.json');
    expect(plan.method).toBe('user-provided');
    expect(doc).toMatch(/^# Secrets to create for cluster basic in namespace demo\n/);
    for (const key of ['tls.crt', 'tls.key', 'ca.crt']) {
      expect(doc).toContain(`| \`${key}\` |`);
    }
    const section = (name: string) => {
      const start = doc.indexOf(`### \`${name}\``);
      expect(start).toBeGreaterThanOrEqual(0);
      const end = doc.indexOf('\n#', start + 1);
      return doc.slice(start, end < 0 ? undefined : end);
    };
    for (const secret of plan.secrets) {
      const body = section(secret.name);
      for (const name of secret.dnsNames ?? []) {
        expect(body).toContain(`- DNS \`${name}\``);
      }
      for (const ip of secret.ipAddresses ?? []) {
        expect(body).toContain(`- IP \`${ip}\``);
      }
    }
    expect(section('basic-pump-cluster-secret')).toContain('- DNS `*.basic-pump.demo.svc`\n- IP `127.0.0.1`\n- IP `::1`');
    expect(section('basic-cluster-client-secret')).toContain('client authentication only');
    expect(section('basic-cluster-client-secret')).not.toContain('- DNS');
    expect(section('basic-mig-master-cluster-secret')).toContain('server authentication and client authentication');
    expect(doc).toContain('Common Name,\n`basic`');
  });

  test('Secret names that follow the convention are accepted', () => {
    expect(() => synth({
      ...props,
      secretNames: { servers: { store: 'basic-store-cluster-secret' }, clients: { database: 'basic-cluster-client-secret' } },
    })).not.toThrow();
  });

  test('a Secret name that breaks the convention is an error at synth', () => {
    expect(() => synth({ ...props, secretNames: { servers: { store: 'store-tls' } } }))
      .toThrow('test/certs: secretNames.servers.store: received "store-tls"; expected "basic-store-cluster-secret" (the operator only loads Secrets with this name; the deployment fails without it)');
    expect(() => synth({ ...props, secretNames: { clients: { migration: 'basic-mig-client' } } }))
      .toThrow('test/certs: secretNames.clients.migration: received "basic-mig-client"; expected "basic-mig-client-secret" (the operator only loads Secrets with this name');
  });

  test('unknown components and kinds in secretNames', () => {
    expect(() => synth({ ...props, secretNames: { servers: { tidb: 'x' } as any } }))
      .toThrow('test/certs: secretNames.servers: received "tidb"; expected a component token');
    expect(() => synth({ ...props, secretNames: { clients: { db: 'x' } as any } }))
      .toThrow('test/certs: secretNames.clients: received "db"; expected a cluster kind: "database" or "migration"');
  });

  test('secretNames belongs to the user-provided method only', () => {
    expect(() => synth({ method: IssuingMethod.CFSSL, secretNames: { servers: { store: 'basic-store-cluster-secret' } } }))
      .toThrow('test/certs: secretNames: received {"servers":{"store":"basic-store-cluster-secret"}}; expected no secretNames with method "cfssl", which creates the Secrets under their required names; secretNames goes with method "user-provided"');
  });
});

describe('choice of method', () => {
  test('cert-manager stays the default and writes no cfssl file', () => {
    const chart = Testing.chart();
    const certs = new ClusterCertificates(chart, 'certs', { clusterName: 'basic', namespace: 'demo', components: ['store'] });
    expect(certs.method).toBe(IssuingMethod.CERT_MANAGER);
    expect(certs.plan().method).toBe('cert-manager');
    expect(certs.node.findAll().filter(OutputFile.isOutputFile).map((f) => f.path)).toEqual(['demo/basic/tls-plan.json']);
  });

  test('an unknown method is an error', () => {
    expect(() => synth({ method: 'vault' as IssuingMethod }))
      .toThrow('test/certs: method: received "vault"; expected one of "cert-manager", "cfssl", "user-provided"');
  });
});
