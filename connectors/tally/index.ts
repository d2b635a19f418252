import { connector } from './connector.js';

export default connector;
