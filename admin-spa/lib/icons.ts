// Menu icons named by the screen catalogue (add one to menu-icon-list.ts).
import type { ComponentType } from 'react';
import * as MENU_ICONS from './menu-icon-list.ts';

export const ICONS: Record<string, ComponentType> = MENU_ICONS;
