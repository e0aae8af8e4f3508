/**
 * The specification's names and the real operator's, one table both ways: it lives with the
 * playground's bridge, which hands the real operator what a user applied (tools/playground).
 */
export { COMPONENT_NAMES, KINDS, OPERATOR_GROUP, SPEC_KEYS, operatorName, toOperator } from '../tools/playground/operator-names';
