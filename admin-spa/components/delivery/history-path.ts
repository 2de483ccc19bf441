/** DB 전송 이력 with its own URL parameters (tab=jobs is 대기·실패 중). */
export const deliveryHistoryPath = (query: Record<string, string> = {}) => {
  const q = new URLSearchParams(query).toString();
  return `/shop-data-deliver-history${q ? `?${q}` : ''}`;
};
