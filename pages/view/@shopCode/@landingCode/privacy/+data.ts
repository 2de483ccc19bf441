export { privacyData as data } from '../../../page-data.ts';
