/** The Zoho Books connector (see README.md). */
export { zohoBooksConnector, zohoBooksConnector as default, rateBudgetFor, ZOHO_RATE_BUDGET } from './connector.js';
export { createZohoClient, ZOHO_RETRY, type ZohoClientOptions } from './client.js';
export { zohoErrorTable, zohoTokenErrorTable } from './error-table.js';
export { ZohoSettings, parseZohoSettings, apiBaseUrl, accountsBaseUrl, DATA_CENTRES, type DataCentre, type ZohoSettingsInput } from './settings.js';
export { invoicesStream } from './streams/invoices.js';
export { creditNotesStream } from './streams/credit-notes.js';
export { customersStream } from './streams/customers.js';
export { ZohoStreamState } from './streams/zoho-stream.js';
export { fetchLookups, clearZohoLookupsCache, offsetMinutesAt } from './streams/lookups.js';
export { mapZohoInvoice } from './map/invoice.js';
export { mapZohoCreditNote } from './map/credit-note.js';
export { mapZohoContact } from './map/customer.js';
export { ZohoLookups, type ZohoTaxDefinition, type ZohoOrganizationInfo } from './map/lookups.js';
