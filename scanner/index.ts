/**
 * `gatehouse/scanner`: the check API for custom checks (`defineCheck`, `defineOption` and the types a check sees) and
 * the report's shape, for code that reads reports.
 */
export * from './api.js';
export type { Report, CheckReport, IssueReport } from './report/report-types.js';
