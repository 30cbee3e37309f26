-- Card in the merchant's method settings (decision 0096): a merchant's own list of methods now
-- names `card` to offer it. Until now cards followed their route whatever the list said, so every
-- list already stored gains `card`: no merchant loses cards by this change. The operator's cap is
-- left as it is: a cap that lists methods already kept cards out.
update payment_method_settings
   set providers = array_append(providers, 'card')
 where providers is not null and not ('card' = any(providers));
