import { FIRST_NAMES, FOREIGN_COMPANIES, INDIAN_COMPANIES, LAST_NAMES, STATES } from './catalog.js';
import { makeGstin, makePan } from '../kit/gstin.js';
import type { StoredCustomer } from './model.js';
import type { SeededRandom } from '../kit/seeded-random.js';

const DAY = 86_400_000;

/**
 * Customers of the sandbox company, in a fixed rotation so any count ≥ 10 has every kind:
 * registered businesses in Karnataka (intra-state: CGST+SGST) and in other states (IGST), an SEZ unit in
 * Karnataka (IGST although same state), a consumer without GSTIN, a composition dealer, overseas buyers
 * invoiced in USD/EUR; every 8th is inactive (QBO's "deleted" customer).
 */
const ROTATION = [
  'reg-home',
  'reg-other',
  'reg-other',
  'overseas',
  'reg-home',
  'consumer',
  'reg-other',
  'sez',
  'comp',
  'overseas',
] as const;

export function generateCustomers(rng: SeededRandom, count: number, start: number): StoredCustomer[] {
  const out: StoredCustomer[] = [];
  let overseas = 0;
  for (let i = 0; i < count; i++) {
    const kind = ROTATION[i % ROTATION.length]!;
    const id = String(i + 1);
    const createTime = start + i * 60_000 + rng.int(0, 59) * 1000;
    const given = rng.pick(FIRST_NAMES);
    const family = rng.pick(LAST_NAMES);
    const phone = rng.chance(0.9) ? `+91 98${rng.digits(8)}` : undefined;
    const base = {
      id,
      syncToken: 0,
      givenName: given,
      familyName: family,
      createTime,
      lastUpdated: createTime + rng.int(0, 3) * DAY,
      active: i % 8 !== 7,
    };
    if (kind === 'overseas') {
      const [name, currency, country, state, city] = FOREIGN_COMPANIES[overseas % FOREIGN_COMPANIES.length]!;
      const display = suffixed(name, overseas, FOREIGN_COMPANIES.length);
      overseas += 1;
      out.push({
        ...base,
        displayName: display,
        companyName: display,
        email: `billing@${slug(display)}.example`,
        phone: `+1 408 555 ${rng.digits(4)}`,
        billAddr: {
          Id: `${id}01`,
          Line1: `${rng.int(10, 999)} Market Street`,
          City: city,
          CountrySubDivisionCode: state,
          PostalCode: rng.digits(5),
          Country: country,
        },
        currency,
        gstRegistrationType: 'OVERSEAS',
      });
      continue;
    }
    const [code, gstCode, city, postal] =
      kind === 'reg-home' || kind === 'sez' ? STATES[0]! : STATES[rng.int(1, STATES.length - 1)]!;
    const address = {
      Id: `${id}01`,
      Line1: `Plot ${rng.int(1, 250)}, ${rng.pick(['MIDC', 'Industrial Area', 'Tech Park', 'SEZ Phase II'])}`,
      City: city,
      CountrySubDivisionCode: code,
      PostalCode: postal,
      Country: 'India',
    };
    if (kind === 'consumer') {
      const display = `${given} ${family}`;
      out.push({
        ...base,
        displayName: i >= ROTATION.length ? `${display} ${id}` : display,
        companyName: '',
        email: rng.chance(0.8) ? `${given.toLowerCase()}.${family.toLowerCase()}@mail.example` : undefined,
        phone,
        billAddr: address,
        currency: 'INR',
        gstRegistrationType: 'CONSUMER',
      });
      continue;
    }
    const company = `${suffixed(INDIAN_COMPANIES[i % INDIAN_COMPANIES.length]!, i, INDIAN_COMPANIES.length)} Pvt Ltd`;
    const pan = makePan(rng, 'C');
    out.push({
      ...base,
      displayName: company,
      companyName: company,
      email: `ap@${slug(company)}.example`,
      phone,
      billAddr: address,
      ...(rng.chance(0.3)
        ? { shipAddr: { ...address, Id: `${id}02`, Line1: `Warehouse ${rng.int(1, 9)}, ${address.Line1}` } }
        : {}),
      currency: 'INR',
      gstin: makeGstin(gstCode, pan),
      pan,
      gstRegistrationType: kind === 'sez' ? 'SEZ' : kind === 'comp' ? 'GST_REG_COMP' : 'GST_REG_REG',
    });
  }
  return out;
}

function suffixed(name: string, index: number, cycle: number): string {
  const round = cycle > 0 ? Math.floor(index / cycle) : 0;
  return round > 0 ? `${name} ${round + 1}` : name;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
