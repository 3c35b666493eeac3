a.conv := nn.conv2d{groups=1}(*, const)
a.opt := nn.relu(add(nn.conv2d(*, const), const)?)?
a.tuple := (nn.relu(*), *)
a.alt := (add | nn.relu)(*)
