module example.com/cluster-tls-reference

go 1.25

// jsii-runtime-go 1.142.0 or later: earlier releases wait for the Node.js process twice when the
// app ends, and may print "Runtime process exited abnormally".
require (
	github.com/aws/jsii-runtime-go v1.142.0
	github.com/cdk8s-cluster-tls/cdk8s-cluster-tls-go/clustertls v0.1.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.106
)
