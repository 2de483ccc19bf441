// Zod configured once with Korean default messages; every schema imports `z` from here.
import { z } from 'zod';
import ko from 'zod/v4/locales/ko.js';

z.config(ko());

export { z };
