import type { Router } from '../kit/router.js';
import { renderCustomFields, renderReportingTags } from './organisation-fields.js';
import type { TaxDefinition } from './tax-catalog.js';
import type { Guard } from './vendor-guard.js';
import type { ZohoDataStore } from './zoho-data-store.js';
import { zohoErrors } from './zoho-error.js';

function renderOrganization(store: ZohoDataStore): Record<string, unknown> {
  const org = store.organization;
  const currency = store.render.currency(org.base_currency);
  return {
    organization_id: org.organization_id,
    name: org.name,
    contact_name: org.contact_name,
    email: org.email,
    is_default_org: true,
    is_org_active: true,
    language_code: 'en',
    fiscal_year_start_month: 3,
    account_created_date: org.account_created_date,
    time_zone: org.time_zone,
    currency_id: currency.currency_id,
    currency_code: currency.currency_code,
    currency_symbol: currency.currency_symbol,
    currency_format: '###,##,##0.00',
    price_precision: 2,
    country: 'India',
    state: org.state,
    state_code: org.state_code,
    gst_no: org.gst_no,
    tax_group_enabled: true,
  };
}

function renderTax(tax: TaxDefinition): Record<string, unknown> {
  return {
    tax_id: tax.tax_id,
    tax_name: tax.tax_name,
    tax_percentage: tax.tax_percentage,
    tax_type: tax.tax_type,
    tax_specific_type: tax.tax_specific_type,
    is_value_added: true,
    is_default_tax: false,
    is_editable: true,
    status: 'active',
  };
}

/**
 * A replayed organisation (POST /__admin/organisation) is served as given, with its taxes and tax groups
 * in place of the generated ones.
 */
export function registerSettingsRoutes(router: Router, guard: Guard, store: ZohoDataStore): void {
  // https://www.zoho.com/books/api/v3/organizations/#list-organizations
  // The one call that needs no organization_id: it is how a client discovers it.
  router.on(
    'GET',
    '/books/v3/organizations',
    guard(() => ({ organizations: [store.replayed.organisation?.organization ?? renderOrganization(store)] }), {
      organization: false,
    }),
  );

  // https://www.zoho.com/books/api/v3/organizations/#get-organization
  router.on(
    'GET',
    '/books/v3/organizations/:organization_id',
    guard(
      (ctx) => {
        if (ctx.params.organization_id !== store.organizationId)
          throw zohoErrors.unknownOrganization(ctx.params.organization_id ?? '');
        return { organization: store.replayed.organisation?.organization ?? renderOrganization(store) };
      },
      { organization: false },
    ),
  );

  // https://www.zoho.com/books/api/v3/reporting-tags/: the organisation's reporting tags with their options.
  router.on(
    'GET',
    '/books/v3/reportingtags',
    guard(() => ({ tags: renderReportingTags() })),
  );

  // The custom fields of every module (each names its `entity`), as Settings → Preferences defines them.
  router.on(
    'GET',
    '/books/v3/settings/customfields',
    guard(() => ({ custom_fields: renderCustomFields() })),
  );

  // https://www.zoho.com/books/api/v3/taxes/#list-taxes
  // Plain taxes carry tax_specific_type (cgst|sgst|igst|cess); groups have tax_type "tax_group" and an
  // empty tax_specific_type: resolve them through /settings/taxgroups/{id}.
  router.on(
    'GET',
    '/books/v3/settings/taxes',
    guard(() => ({
      taxes: store.replayed.organisation ? (store.replayed.organisation.taxes ?? []) : store.taxes.all.map(renderTax),
      page_context: {
        page: 1,
        per_page: 200,
        has_more_page: false,
        report_name: 'Taxes',
        applied_filter: 'Status.All',
        sort_column: 'tax_name',
        sort_order: 'A',
      },
    })),
  );

  // https://www.zoho.com/books/api/v3/taxes/#get-a-tax
  router.on(
    'GET',
    '/books/v3/settings/taxes/:tax_id',
    guard((ctx) => {
      const replayed = store.replayed.organisation;
      if (replayed) {
        const tax = replayed.taxes?.find((t) => String(t.tax_id) === ctx.params.tax_id);
        if (!tax) throw zohoErrors.notFound('Tax');
        return { tax };
      }
      const tax = store.taxes.byId(ctx.params.tax_id ?? '');
      if (!tax) throw zohoErrors.notFound('Tax');
      return { tax: renderTax(tax) };
    }),
  );

  // https://www.zoho.com/books/api/v3/taxes/#get-a-tax-group
  router.on(
    'GET',
    '/books/v3/settings/taxgroups/:tax_group_id',
    guard((ctx) => {
      const replayed = store.replayed.organisation;
      if (replayed) {
        const tax_group = replayed.tax_groups?.find((g) => String(g.tax_group_id) === ctx.params.tax_group_id);
        if (!tax_group) throw zohoErrors.notFound('Tax group');
        return { tax_group };
      }
      const group = store.taxes.byId(ctx.params.tax_group_id ?? '');
      if (!group || group.tax_type !== 'tax_group') throw zohoErrors.notFound('Tax group');
      return {
        tax_group: {
          tax_group_id: group.tax_id,
          tax_group_name: group.tax_name,
          tax_group_percentage: group.tax_percentage,
          taxes: store.taxes.componentsOf(group.tax_id).map(renderTax),
        },
      };
    }),
  );
}
