"""The reference app of main.ts, in Python: the same deployment, synthesized twice, once per
issuing method, into dist/ and cluster-tls/ beside it, with the record cluster-tls.lock.json.

Run it from the folder that is to hold dist/: python main.py
"""
import sys

from cdk8s import App, Chart
from cdk8s_cluster_tls import (
    BackupRestore,
    ClusterCertificates,
    DrainerRelease,
    IssuingMethod,
    MigrationSource,
    StorageClaim,
    TlsDatabaseCluster,
    TlsMigrationCluster,
)

# Where the operator's images come from; the operator appends each cluster's version as the tag.
REGISTRY = "registry.example.com/db"


def add_deployment(app: App, namespace: str, method: IssuingMethod) -> None:
    """The database cluster "basic" with its monitor, drainer, backup and restore, and the
    migration cluster "basic" that copies an upstream MySQL database into it."""
    chart = Chart(app, namespace, namespace=namespace)

    certs = ClusterCertificates(chart, "basic-certificates",
        cluster_name="basic",
        method=method,
        subject={"organization": "demo", "organizational_unit": "databases", "country": "US",
                 "state": "California", "locality": "San Francisco"},
        rotations=[],
    )

    database = TlsDatabaseCluster(chart, "basic-database",
        cluster_name="basic",
        version="v4.0.5",
        operator_version="v1.2.0",
        certificates=certs,
        coordinator={"base_image": f"{REGISTRY}/coordinator", "storage": "10Gi"},
        store={"base_image": f"{REGISTRY}/store", "storage": "100Gi"},
        sqlserver={"base_image": f"{REGISTRY}/sqlserver"},
        pump={"base_image": f"{REGISTRY}/pump", "storage": "20Gi"},
        # The changefeed writes to a downstream database over TLS with that database's client certificate.
        changefeed={"base_image": f"{REGISTRY}/changefeed", "sink_tls_secret_names": ["basic-sink-tls"]},
        columnar={"base_image": f"{REGISTRY}/columnar", "storage_claims": [StorageClaim(storage="100Gi")]},
        # Applications reach the SQL server over TLS, each with a client certificate of its own.
        tls_client={},
    )
    # Alerts before any certificate of the plan expires, in a PrometheusRule and in the monitor.
    expiry = certs.watch_expiry()
    database.add_monitor(
        initializer={"base_image": f"{REGISTRY}/monitor-initializer", "version": "v4.0.5"},
        reloader={"base_image": f"{REGISTRY}/monitor-reloader", "version": "v1.0.1"},
        expiry_watch=expiry,
    )

    add_migration(chart, certs, database)

    # The drainer, installed with its chart; its host names follow the release name.
    DrainerRelease(chart, "basic-drainer",
        cluster=database,
        release_name="binlog",
        chart={"repository": "https://charts.example.com/stable", "version": "1.1.5"},
    )

    # A backup and a restore: one-off operations, written to cluster-tls/, never to dist/.
    storage = {
        "s3": {"provider": "aws", "region": "us-west-2", "bucket": "basic-backups", "secret_name": "basic-s3-credentials"},
        "credentials_secret_name": "basic-backup-credentials",
        "user": "backup",
    }
    BackupRestore(chart, "basic-backup", cluster=database, backup={}, **storage)
    BackupRestore(chart, "basic-restore", cluster=database, restore={}, **storage)


def add_migration(chart: Chart, certs: ClusterCertificates, database: TlsDatabaseCluster) -> None:
    """The migration cluster "basic", copying one upstream MySQL source into the database cluster."""
    TlsMigrationCluster(chart, "basic-migration",
        cluster_name="basic",
        version="v2.0.7",
        operator_version="v1.2.0",
        certificates=certs,
        master={"base_image": f"{REGISTRY}/migration"},
        worker={"base_image": f"{REGISTRY}/migration"},
        sources=[MigrationSource(source_id="source1", host="mysql.example.com", port=3306, user="root",
                                 tls_secret_name="basic-source1-tls")],
        # The migration writes to the SQL server with a client certificate of its own.
        target={"database": database, "user": "basic-migration",
                "tls_secret_name": database.add_sql_client("basic-migration").secret_name},
        task={"name": "basic-migration"},
    )


def main() -> int:
    try:
        app = App(outdir="dist")
        add_deployment(app, "demo", IssuingMethod.CERT_MANAGER)
        add_deployment(app, "demo-cfssl", IssuingMethod.CFSSL)
        app.synth()
    except RuntimeError as e:
        # A refusal arrives as a RuntimeError holding its one-line message: print it as the
        # library's own commands do, without a traceback.
        for line in str(e).splitlines():
            print(f"error: {line}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
