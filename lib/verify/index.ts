export * from './input';
export * from './verify';
export * from './report';
