import { DataContractError } from '../../src/errors/index.js';

/** A credit note's invoices never reached billing (quarantined, or deleted in the source). */
export class DependencyMissingError extends DataContractError {}
