// Returns its inputs, one per element kind the host boundary supports, so
// that what comes out is exactly what the .pb reader put in.
func.func @main(%f32: tensor<3xf32>, %f64: tensor<3xf64>, %f16: tensor<3xf16>,
                %i8: tensor<3xi8>, %i16: tensor<3xi16>, %i32: tensor<3xi32>,
                %i64: tensor<3xi64>, %u8: tensor<3xui8>, %u16: tensor<3xui16>,
                %u32: tensor<3xui32>, %u64: tensor<3xui64>, %bool: tensor<3xi1>)
    -> (tensor<3xf32>, tensor<3xf64>, tensor<3xf16>, tensor<3xi8>,
        tensor<3xi16>, tensor<3xi32>, tensor<3xi64>, tensor<3xui8>,
        tensor<3xui16>, tensor<3xui32>, tensor<3xui64>, tensor<3xi1>) {
  return %f32, %f64, %f16, %i8, %i16, %i32, %i64, %u8, %u16, %u32, %u64, %bool
      : tensor<3xf32>, tensor<3xf64>, tensor<3xf16>, tensor<3xi8>,
        tensor<3xi16>, tensor<3xi32>, tensor<3xi64>, tensor<3xui8>,
        tensor<3xui16>, tensor<3xui32>, tensor<3xui64>, tensor<3xi1>
}
