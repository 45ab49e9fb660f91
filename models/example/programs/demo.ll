# The article's three examples on the reference accelerator, one launch per clock.
# Run: isekit run example models/example/programs/demo.ll --trace

# Move: one clock.
ldi lr1, 5
move gr0, lr1
ldg gr1, -3

# Two MACs back to back overlap: the second multiplies while the first accumulates.
clracc
mac gr0, gr0            # ACC += 5 * 5
mac gr0, gr1            # ACC += 5 * -3, its multiply in the same clock as the add above
wait idle
expect ACR == 10

# CONV over DM0[0..4] and TM0[8..12]: LOOPREG + 2 clocks, then an interrupt.
init DM0[0] = 1, 2, 3, 4, 5
init TM0[8] = 2, 2, 2, 2, 2
setloop 4
setar ar0, 0
setar ar1, 8
clracc
conv acc, dm0[ar0], tm0[ar1]
wait irq
expect ACR == 30

# The same with a flag in shared memory instead of the interrupt.
setloop 4
setar ar0, 0
setar ar1, 8
clracc
convf acc, dm0[ar0], tm0[ar1], shm[7]
wait flag SHM[7] == 1
expect ACR == 30
