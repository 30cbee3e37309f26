/* global window */
// The gateway in WooCommerce's block checkout: its title and description; choosing it and placing
// the order sends the shopper to Caisse's hosted checkout (the server's process_payment redirect).
(function () {
  const { registerPaymentMethod } = window.wc.wcBlocksRegistry;
  const { getSetting } = window.wc.wcSettings;
  const { createElement } = window.wp.element;
  const { decodeEntities } = window.wp.htmlEntities;
  const data = getSetting('caisse_data', {});
  const title = decodeEntities(data.title || 'Caisse');
  const Content = () => createElement('div', { className: 'caisse-description', style: { whiteSpace: 'pre-line' } }, decodeEntities(data.description || ''));
  registerPaymentMethod({
    name: 'caisse',
    label: createElement('span', { className: 'caisse-label' }, title),
    ariaLabel: title,
    content: createElement(Content),
    edit: createElement(Content),
    canMakePayment: () => true,
    supports: { features: data.supports || ['products'] },
  });
})();
