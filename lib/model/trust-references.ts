/**
 * Every way a Kubernetes object can obtain trust, found by the shape of what it holds, whatever
 * its kind or API group: a Secret loaded by a volume, a projected volume, an environment variable
 * or `envFrom` of any pod template at any depth (a CRD with a pod template included), a CSI
 * volume's secret, an image pull; a Secret named by a `…SecretName`, `…SecretNames` or
 * `…SecretRef` field, a reference of kind `Secret` (a Gateway's `certificateRefs`, Flux's
 * `valuesFrom`) or an Istio `credentialName` (a Certificate writing it, an issuer signing with it,
 * an Ingress or a gateway serving it, a cluster resource loading it); a Secret an RBAC rule grants
 * by name; a Secret the object is; and a certificate requested from an issuer by `issuerRef` (a
 * Certificate, a CertificateRequest, any object), by cert-manager's csi-driver volume attributes,
 * by cert-manager's annotations (an Ingress, a Gateway, an OpenShift Route), or by a
 * CertificateSigningRequest's signer name. Pure functions over rendered manifests.
 */

/**
 * A Secret or an issuer an object refers to.
 * @jsii ignore
 */
export interface TrustTarget {
  /** `Secret`, `Issuer` or `ClusterIssuer`. */
  readonly kind: 'Secret' | 'Issuer' | 'ClusterIssuer';
  /**
   * Its namespace; nothing for a ClusterIssuer; `*` for a reference that can reach the name in any
   * namespace (a ClusterRole's, or one made by an object whose manifest names no namespace).
   */
  readonly namespace?: string;
  /** Its name. */
  readonly name: string;
}

/**
 * How an object refers to a Secret or an issuer.
 * @jsii ignore
 */
export type ReferenceWay = 'loads' | 'has its CSI driver read' | 'writes' | 'signs with' | 'requests a certificate from' | 'declares' | 'serves' | 'pulls images with'
  | 'grants access to' | 'names';

/**
 * One reference of an object to a Secret or an issuer.
 * @jsii ignore
 */
export interface TrustReference {
  /** What it refers to. */
  readonly target: TrustTarget;
  /** How. */
  readonly way: ReferenceWay;
  /** Where in the object, as a path (`spec.template.spec.volumes[0].secret.secretName`). */
  readonly field: string;
}

/** The group of cert-manager's issuers. */
const CERT_MANAGER_GROUP = 'cert-manager.io';

/**
 * cert-manager's annotations that have it issue a certificate for the object that carries them:
 * an Ingress or a Gateway (its ingress-shim and gateway-shim), an OpenShift Route (openshift-routes,
 * which reads `issuer-name`).
 */
const SHIM_ANNOTATIONS = {
  issuer: 'cert-manager.io/issuer',
  issuerName: 'cert-manager.io/issuer-name',
  clusterIssuer: 'cert-manager.io/cluster-issuer',
  kind: 'cert-manager.io/issuer-kind',
  group: 'cert-manager.io/issuer-group',
} as const;

/** cert-manager csi-driver's volume attributes that name the issuer of the pod's certificate. */
const CSI_ATTRIBUTES = {
  name: 'csi.cert-manager.io/issuer-name',
  kind: 'csi.cert-manager.io/issuer-kind',
  group: 'csi.cert-manager.io/issuer-group',
} as const;

/** A CertificateSigningRequest's signer name for a cert-manager issuer: `issuers.cert-manager.io/<namespace>.<name>` or `clusterissuers.cert-manager.io/<name>`. */
const SIGNER_NAME = /^(issuers|clusterissuers)\.cert-manager\.io\/(.+)$/;

/**
 * The kinds Kubernetes keeps outside any namespace, of those that can name a Secret or an issuer
 * or are commonly applied beside them; any other kind is namespaced, as custom resources with pod
 * templates are.
 */
const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'ClusterIssuer',
  'PriorityClass', 'IngressClass', 'RuntimeClass', 'CSIDriver', 'VolumeAttachment', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'APIService', 'CertificateSigningRequest', 'GatewayClass',
]);

/** The namespace of an object whose manifest names none: `kubectl apply` puts it wherever its context or `-n` points, so it may land in any. */
export const ANY_NAMESPACE = '*';

/**
 * The namespace an object lands in: its own; for a namespaced kind that names none,
 * {@link ANY_NAMESPACE}, since `kubectl apply` gives it the namespace of its context or of `-n`;
 * nothing for a kind outside namespaces.
 * @jsii ignore
 */
export function objectNamespace(object: any): string | undefined {
  const own = object?.metadata?.namespace;
  if (typeof own === 'string' && own !== '') {
    return own;
  }
  return CLUSTER_SCOPED_KINDS.has(object?.kind) ? undefined : ANY_NAMESPACE;
}

/**
 * Every reference of a rendered object to a Secret or an issuer. `namespace` is where the object
 * lands ({@link objectNamespace}); `clusterResourceNamespaces` are the namespaces cert-manager reads
 * a ClusterIssuer's Secrets from.
 * @jsii ignore
 */
export function trustReferences(object: any, namespace: string | undefined, clusterResourceNamespaces: readonly string[] = []): TrustReference[] {
  if (!isObject(object)) {
    return [];
  }
  const kind = typeof object.kind === 'string' ? object.kind : undefined;
  const found = collector(kind, namespace, clusterResourceNamespaces);
  wholeObjectReferences(object, kind, found);
  walk(object, [], (node, at) => fieldReferences(node, at, kind, found));
  return found.references;
}

/** Where the references of one object are gathered, each resolved to its namespace. */
interface Collector {
  readonly references: TrustReference[];
  /** A Secret named `name` (in `explicit`'s namespace, or where the object reaches Secrets). */
  secret(name: unknown, field: string, way: ReferenceWay, explicit?: unknown): void;
  /** A cert-manager issuer of a kind (`Issuer` unless given) and group (`cert-manager.io` unless given). */
  issuer(name: unknown, issuerKind: unknown, group: unknown, field: string): void;
}

/** The collector of an object's references: a namespaced object reaches Secrets and Issuers in its namespace. */
function collector(kind: string | undefined, namespace: string | undefined, clusterResourceNamespaces: readonly string[]): Collector {
  const references: TrustReference[] = [];
  // A cluster-wide object reaches Secrets where it says, or for a ClusterIssuer where cert-manager reads them; a ClusterRole's names, in any namespace.
  const secretNamespaces = namespace !== undefined ? [namespace] : kind === 'ClusterIssuer' ? [...clusterResourceNamespaces] : [ANY_NAMESPACE];
  return {
    references,
    secret(name, field, way, explicit) {
      if (typeof name === 'string' && name !== '') {
        const where = typeof explicit === 'string' && explicit !== '' ? [explicit] : secretNamespaces;
        where.forEach((ns) => references.push({ target: { kind: 'Secret', namespace: ns, name }, way, field }));
      }
    },
    issuer(name, issuerKind, group, field) {
      if (typeof name !== 'string' || name === '' || (group !== undefined && group !== '' && group !== CERT_MANAGER_GROUP)) {
        return;
      }
      const k = issuerKind === undefined || issuerKind === '' ? 'Issuer' : issuerKind;
      if (k === 'ClusterIssuer') {
        references.push({ target: { kind: 'ClusterIssuer', name }, way: 'requests a certificate from', field });
      } else if (k === 'Issuer' && namespace !== undefined) {
        references.push({ target: { kind: 'Issuer', namespace, name }, way: 'requests a certificate from', field });
      }
    },
  };
}

/** The references an object makes as a whole: a Secret it is, cert-manager's annotations, a signing request's signer, an RBAC rule's names. */
function wholeObjectReferences(object: Record<string, any>, kind: string | undefined, found: Collector): void {
  if (kind === 'Secret') {
    found.secret(object.metadata?.name, 'metadata.name', 'declares');
  }
  annotationIssuers(object.metadata?.annotations, found);
  if (kind === 'CertificateSigningRequest' && typeof object.spec?.signerName === 'string') {
    signerIssuer(object.spec.signerName, 'spec.signerName', found.references);
  }
  if (kind === 'Role' || kind === 'ClusterRole') {
    list(object.rules).forEach((rule, i) => {
      if (list(rule?.resources).some((r) => r === 'secrets' || r === '*')) {
        list(rule.resourceNames).forEach((n, j) => found.secret(n, `rules[${i}].resourceNames[${j}]`, 'grants access to'));
      }
    });
  }
}

/** The references one node of an object makes by its fields, at `at`. */
function fieldReferences(node: Record<string, any>, at: Path, kind: string | undefined, found: Collector): void {
  // A typed reference, at any depth and in any list: a Gateway's certificateRefs, Flux's valuesFrom.
  if (node.kind === 'Secret' && (node.group === undefined || node.group === '')) {
    const path = pathText(at);
    if (path !== '') {
      found.secret(node.name, `${path}.name`, /(^|\.)certificateRefs\[\d+\]$/.test(path) ? 'serves' : 'names', node.namespace);
    }
  }
  for (const key of Object.keys(node)) {
    if (mayRefer(key)) {
      keyReferences(key, node[key], node, pathText(at), kind, found);
    }
  }
}

/** The keys {@link keyReferences} reads that do not name a Secret; every other one it reads does (`…ecret…`). */
const REFERRING_KEYS: ReadonlySet<string> = new Set(['credentialName', 'issuerRef', 'volumeAttributes']);

/** Whether a key can make a reference, so that the others cost one test: most keys of a manifest make none. */
function mayRefer(key: string): boolean {
  return key.includes('ecret') || REFERRING_KEYS.has(key);
}

/** The references one field of a node makes: `key`, holding `value`, of the node at `path`. */
function keyReferences(key: string, value: any, node: Record<string, any>, path: string, kind: string | undefined, found: Collector): void {
  const field = path === '' ? key : `${path}.${key}`;
  if ((key === 'secretName' || /.SecretName$/.test(key)) && typeof value === 'string') {
    found.secret(value, field, wayOfSecretName(kind, field), node.secretNamespace);
  } else if (/.SecretNames$/.test(key)) {
    list(value).forEach((n, i) => found.secret(n, `${field}[${i}]`, 'loads'));
  } else if (key === 'nodePublishSecretRef' && isObject(value)) {
    found.secret(value.name, `${field}.name`, 'has its CSI driver read', value.namespace);
  } else if ((key === 'secretRef' || key === 'secretKeyRef' || key === 'secret' || /.SecretRef$/.test(key)) && isObject(value)) {
    found.secret(value.name, `${field}.name`, 'loads', value.namespace);
  } else if (key === 'credentialName' && typeof value === 'string') {
    found.secret(value, field, 'serves');
  } else if (key === 'imagePullSecrets' || key === 'secrets') {
    list(value).forEach((s, i) => found.secret(s?.name, `${field}[${i}].name`, key === 'imagePullSecrets' ? 'pulls images with' : 'names', s?.namespace));
  } else if (key === 'issuerRef' && isObject(value)) {
    found.issuer(value.name, value.kind, value.group, field);
  } else if (key === 'volumeAttributes' && isObject(value) && CSI_ATTRIBUTES.name in value) {
    found.issuer(value[CSI_ATTRIBUTES.name], value[CSI_ATTRIBUTES.kind], value[CSI_ATTRIBUTES.group], `${field}["${CSI_ATTRIBUTES.name}"]`);
  }
}

/** How a `secretName` field refers to its Secret, by where it stands. */
function wayOfSecretName(kind: string | undefined, field: string): ReferenceWay {
  if (kind === 'Certificate' && field === 'spec.secretName') {
    return 'writes';
  }
  if ((kind === 'Issuer' || kind === 'ClusterIssuer') && /^spec\.[^.]+\.secretName$/.test(field)) {
    return 'signs with';
  }
  if (/(^|\.)tls\[\d+\]\.secretName$/.test(field)) {
    return 'serves';
  }
  // A pod's `volumes`, or a field of that list's kind (an operator's `additionalVolumes`).
  return /(^|\.)([A-Za-z]*V|v)olumes\[\d+\]\./.test(field) ? 'loads' : 'names';
}

/** The issuers cert-manager's annotations name. */
function annotationIssuers(annotations: unknown, found: Collector): void {
  if (!isObject(annotations)) {
    return;
  }
  const field = (key: string) => `metadata.annotations["${key}"]`;
  for (const key of [SHIM_ANNOTATIONS.issuer, SHIM_ANNOTATIONS.issuerName]) {
    if (typeof annotations[key] === 'string') {
      found.issuer(annotations[key], annotations[SHIM_ANNOTATIONS.kind], annotations[SHIM_ANNOTATIONS.group], field(key));
    }
  }
  if (typeof annotations[SHIM_ANNOTATIONS.clusterIssuer] === 'string') {
    found.issuer(annotations[SHIM_ANNOTATIONS.clusterIssuer], 'ClusterIssuer', undefined, field(SHIM_ANNOTATIONS.clusterIssuer));
  }
}

/**
 * The issuer a CertificateSigningRequest's signer name names, if it is cert-manager's (read there
 * alone: a `clusterTrustBundle` projection names a signer to read its public CA certificates).
 */
function signerIssuer(signerName: string, field: string, out: TrustReference[]): void {
  const match = SIGNER_NAME.exec(signerName);
  if (match === null) {
    return;
  }
  if (match[1] === 'clusterissuers') {
    out.push({ target: { kind: 'ClusterIssuer', name: match[2] }, way: 'requests a certificate from', field });
    return;
  }
  const dot = match[2].indexOf('.');
  if (dot > 0) {
    out.push({ target: { kind: 'Issuer', namespace: match[2].slice(0, dot), name: match[2].slice(dot + 1) }, way: 'requests a certificate from', field });
  }
}

/**
 * The role a reference gives the library's object that was made with it.
 * @jsii ignore
 */
export function referenceRole(reference: TrustReference): 'writer' | 'signer' | 'requester' | 'loader' {
  switch (reference.way) {
    case 'writes': return 'writer';
    case 'signs with': return 'signer';
    case 'requests a certificate from': return 'requester';
    default: return 'loader';
  }
}

/**
 * Where a node stands in an object: the keys and list indexes that lead to it from the object, in
 * order. One list serves the whole walk (a step is added on the way down and taken off on the way
 * back); it is written out as text ({@link pathText}) only for a node that makes a reference, so
 * that walking an object builds nothing for the many nodes that make none.
 */
type Path = (string | number)[];

/** A path as text: keys joined by '.', indexes in brackets (`spec.volumes[0].secret`); '' for the object itself. */
function pathText(at: Path): string {
  let text = '';
  for (const step of at) {
    text = typeof step === 'number' ? `${text}[${step}]` : text === '' ? step : `${text}.${step}`;
  }
  return text;
}

/** Calls `visit` with every plain object under `value`, the value included, and its path (valid during the call only). */
function walk(value: unknown, at: Path, visit: (node: Record<string, any>, at: Path) => void): void {
  if (typeof value !== 'object' || value === null) {
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      walk(value[i], at, visit);
      at.pop();
    }
    return;
  }
  visit(value as Record<string, any>, at);
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    // A scalar holds no node: most values of a manifest are scalars.
    if (typeof child === 'object' && child !== null) {
      at.push(key);
      walk(child, at, visit);
      at.pop();
    }
  }
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}
