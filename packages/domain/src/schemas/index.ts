export * from './meta';
export * from './capi';
export * from './controlplane';
export * from './bootstrap';
export * from './dcs';
export * from './core';
export * from './registry';
export * from './catalog';
