/** The QuickBooks Online connector (see README.md). */
import { connector } from './connector.js';

export default connector;
