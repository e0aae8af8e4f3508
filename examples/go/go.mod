module example.com/cluster-tls-reference

go 1.25

require (
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-cluster-tls/cdk8s-cluster-tls-go/clustertls v0.1.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.106
)
