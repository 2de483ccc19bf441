// A catalogue screen whose icon is not in the menu's list shows none, silently: the list must have every one.
import { expect, it } from 'vitest';
import { SCREENS } from '@contracts/screens.ts';
import { ICONS } from './icons.ts';

it('has the icon of every catalogue screen', () => {
  expect(SCREENS.filter((s) => !ICONS[s.icon]).map((s) => `${s.key}: add ${s.icon} to admin-spa/lib/menu-icon-list.ts`)).toEqual([]);
});
