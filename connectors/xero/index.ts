import { xeroConnector } from './connector.js';

export default xeroConnector;
export { xeroConnector };
export { startXeroEmulator, type XeroEmulator, type XeroEmulatorOptions } from '../../sandbox/xero/index.js';
export { XeroSettings } from './settings.js';
export { createXeroClient } from './client.js';
