# oneDNN patterns

$act := nn.relu(*) | sigmoid(*)   // either activation
onednn.conv2d_bias_relu := nn.relu(add(nn.conv2d(*, const), const))
onednn.dense_act := $act:f32
onednn.pair := add($act,
                   $act)
   # trailing comment
