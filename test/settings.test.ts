import { App, Chart } from 'cdk8s';
import { API_GROUP_CONTEXT, RESTART_ANNOTATION_CONTEXT, operatorApiVersion, restartAnnotationKey } from '../lib';

describe('operator settings', () => {
  test('the restart annotation is the operator group\'s restartedAt, following the API group setting', () => {
    const app = new App();
    expect(restartAnnotationKey(new Chart(app, 'a'))).toBe('db.operator.io/restartedAt');
    const custom = new App();
    custom.node.setContext(API_GROUP_CONTEXT, 'acme.io');
    const chart = new Chart(custom, 'b');
    expect(operatorApiVersion(chart)).toBe('acme.io/v1alpha1');
    expect(restartAnnotationKey(chart)).toBe('acme.io/restartedAt');
  });

  test('an operator built with another key is a setting of its own', () => {
    const app = new App();
    app.node.setContext(RESTART_ANNOTATION_CONTEXT, 'example.org/rolled-at');
    expect(restartAnnotationKey(new Chart(app, 'a'))).toBe('example.org/rolled-at');
  });
});
