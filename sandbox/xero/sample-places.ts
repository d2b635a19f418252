/** Places the generator draws contact addresses from (fictional addresses, real cities, GST state codes). */
export interface Place {
  city: string;
  region: string;
  postalCode: string;
  country: string;
  /** GST state code for Indian places. */
  gstState?: string;
  phoneCountry: string;
  phoneArea: string;
}

export const INDIAN_PLACES: readonly Place[] = [
  {
    city: 'Bengaluru',
    region: 'Karnataka',
    postalCode: '560001',
    country: 'India',
    gstState: '29',
    phoneCountry: '91',
    phoneArea: '80',
  },
  {
    city: 'Mumbai',
    region: 'Maharashtra',
    postalCode: '400001',
    country: 'India',
    gstState: '27',
    phoneCountry: '91',
    phoneArea: '22',
  },
  {
    city: 'Chennai',
    region: 'Tamil Nadu',
    postalCode: '600001',
    country: 'India',
    gstState: '33',
    phoneCountry: '91',
    phoneArea: '44',
  },
  {
    city: 'New Delhi',
    region: 'Delhi',
    postalCode: '110001',
    country: 'India',
    gstState: '07',
    phoneCountry: '91',
    phoneArea: '11',
  },
  {
    city: 'Hyderabad',
    region: 'Telangana',
    postalCode: '500001',
    country: 'India',
    gstState: '36',
    phoneCountry: '91',
    phoneArea: '40',
  },
  {
    city: 'Pune',
    region: 'Maharashtra',
    postalCode: '411001',
    country: 'India',
    gstState: '27',
    phoneCountry: '91',
    phoneArea: '20',
  },
];

export const AUSTRALIAN_PLACES: readonly Place[] = [
  { city: 'Sydney', region: 'NSW', postalCode: '2000', country: 'Australia', phoneCountry: '61', phoneArea: '2' },
  { city: 'Melbourne', region: 'VIC', postalCode: '3000', country: 'Australia', phoneCountry: '61', phoneArea: '3' },
  { city: 'Brisbane', region: 'QLD', postalCode: '4000', country: 'Australia', phoneCountry: '61', phoneArea: '7' },
];

export const FOREIGN_PLACES: readonly Place[] = [
  { city: 'Austin', region: 'TX', postalCode: '73301', country: 'United States', phoneCountry: '1', phoneArea: '512' },
  {
    city: 'London',
    region: '',
    postalCode: 'EC1A 1BB',
    country: 'United Kingdom',
    phoneCountry: '44',
    phoneArea: '20',
  },
  { city: 'Berlin', region: '', postalCode: '10115', country: 'Germany', phoneCountry: '49', phoneArea: '30' },
  { city: 'Auckland', region: '', postalCode: '1010', country: 'New Zealand', phoneCountry: '64', phoneArea: '9' },
];
