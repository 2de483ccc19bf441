export { landingData as data } from '../../page-data.ts';
