// What a channel change refreshes: this screen's list and each channel, and the channel pickers
// of DB 전송 and DB 전송 이력.
import type { Endpoint } from '@contracts/endpoint.ts';
import { deliveryChannelsApi } from '@contracts/delivery-channels.ts';
import { deliveryApi } from '@contracts/delivery-history.ts';

export const CHANNEL_VIEWS: readonly Endpoint[] = [deliveryChannelsApi.list, deliveryChannelsApi.get, deliveryApi.channels];
