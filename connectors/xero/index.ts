/** The Xero connector (see README.md). */
import { connector } from './connector.js';

export default connector;
