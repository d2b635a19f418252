/** The mapping core shared by every connector's mappers. Pure functions: no I/O, no clock, no config. */
export * from './quarantine-reason.js';
export * from './money.js';
export * from './tax.js';
export * from './indian-state.js';
export * from './discount.js';
export * from './currency.js';
export * from './document-exchange-rate.js';
export * from './country-code.js';
export * from './organisation-defaults.js';
export * from './ids.js';
export * from './time.js';
export * from './checks.js';
export * from './text-line.js';
export * from './quantity-and-price.js';
export * from './steps.js';
