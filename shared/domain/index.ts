export * from './constants';
export * from './messages';
export * from './schemas';
export * from './url';
export * from './links';
export * from './supercurations';
export * from './subscriptions';
export * from './csv';
