import { prerenderUrls } from '../../../page-data.ts';

export const onBeforePrerenderStart = () => prerenderUrls('privacy');
